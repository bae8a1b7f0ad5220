import Foundation
import Registry

/// What the client commands (`publish`, `check-values`) share: the server's URL, the token
/// (from `--token-file` or `REGISTRY_TOKEN`, never the command line, where `ps` and shell
/// history would show it) and JSON POSTs.
struct RegistryClient {
    static let timeoutSeconds = 30
    /// Exit statuses beyond 0 (success) and 2 (usage).
    enum Exit {
        static let other: Int32 = 1
        static let incompatible: Int32 = 3
        static let ruleFailed: Int32 = 4
    }

    let baseURL: String
    let token: String

    init(_ arguments: Arguments, environment: [String: String]) throws {
        if arguments.option("token") != nil {
            throw UsageError("--token is not accepted: pass --token-file FILE or set REGISTRY_TOKEN")
        }
        let url = try arguments.requiredOption("url")
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw UsageError("--url must start with http:// or https://, got \"\(url)\"")
        }
        baseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        let raw: String
        if let path = arguments.option("token-file") {
            raw = Self.read(path)
        } else if let value = environment["REGISTRY_TOKEN"], !value.isEmpty {
            raw = value
        } else {
            throw UsageError("no token: pass --token-file FILE or set REGISTRY_TOKEN")
        }
        token = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw UsageError("the token must be one line of printable ASCII")
        }
    }

    /// POSTs `body` to `path` (percent-encoded already); the parsed answer, or exit 1 when none came.
    func post(_ path: String, _ body: JSONObject) -> (status: Int, json: JSONValue?, message: String) {
        let endpoint = baseURL + path
        let response: HTTPClient.Response
        do {
            response = try HTTPClient.send(
                method: "POST", url: endpoint,
                headers: ["Authorization: Api \(token)", "Content-Type: application/json", "Accept: application/json"],
                body: JSONWriter.bytes(.object(body)), timeoutSeconds: Self.timeoutSeconds)
        } catch {
            Console.fail("\(endpoint): \(error.description)", status: Exit.other)
        }
        let json = try? JSONParser.parse(response.body)
        let message = json?["message"]?.stringValue ?? String(decoding: response.body.prefix(500), as: UTF8.self)
        return (response.status, json, message)
    }

    /// A file's text; exit 1 when it cannot be read or is not UTF-8.
    static func read(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { Console.fail("cannot read \(path)", status: Exit.other) }
        guard let text = String(data: data, encoding: .utf8) else { Console.fail("\(path) is not UTF-8 text", status: Exit.other) }
        return text
    }

    /// A path segment, percent-encoded byte by byte outside the unreserved characters.
    static func pathSegment(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            out += unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return out
    }
}
