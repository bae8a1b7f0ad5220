import Foundation
import Registry

/// `schema-registry publish`: publishes a schema from a CI pipeline, from the Swift source of
/// the `ActivityAttributes` type (`--swift FILE --type NAME`) or a JSON Schema file
/// (`--schema FILE --type NAME`). Prints the version (`N`, or `N unchanged` when
/// `--if-changed` found the newest version identical). Exit status: 0 published or unchanged,
/// 3 refused as incompatible, 4 a schema rule failed, 2 usage, 1 anything else. Problems go
/// to stderr, one per line, with their paths. The token comes from `--token-file` or
/// `REGISTRY_TOKEN`, never from the command line (where `ps` and shell history would show it).
enum PublishCommand {
    enum Exit {
        static let incompatible: Int32 = 3
        static let ruleFailed: Int32 = 4
        static let other: Int32 = 1
    }

    static let timeoutSeconds = 30

    static func run(_ words: [String], environment: [String: String]) throws {
        let arguments = try Arguments(words[...], flags: ["if-changed", "require-compatible"])
        if arguments.option("token") != nil {
            throw UsageError("--token is not accepted: pass --token-file FILE or set REGISTRY_TOKEN")
        }
        let url = try arguments.requiredOption("url")
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw UsageError("--url must start with http:// or https://, got \"\(url)\"")
        }
        let application = try arguments.requiredOption("application")
        let attributesType = try arguments.requiredOption("type")
        guard (arguments.option("swift") == nil) != (arguments.option("schema") == nil) else {
            throw UsageError("give exactly one of --swift FILE or --schema FILE")
        }
        let token = try token(arguments, environment: environment)
        let jsonSchema: String
        switch (arguments.option("swift"), arguments.option("schema")) {
        case (let swift?, nil):
            do {
                jsonSchema = JSONPrettyWriter.string(try SwiftSchemaReader.schema(fromSwiftSource: read(swift), typeName: attributesType))
            } catch let error as SwiftSchemaError {
                Console.message("\(swift):\(error.line):\(error.column): \(error.message)")
                exit(Exit.ruleFailed)
            }
        case (nil, let schema?):
            jsonSchema = try read(schema)
        default:
            throw UsageError("give exactly one of --swift FILE or --schema FILE")
        }

        var body: JSONObject = [
            "application": .string(application), "attributesType": .string(attributesType), "jsonSchema": .string(jsonSchema),
        ]
        if arguments.flag("require-compatible") { body["requireCompatible"] = .bool(true) }
        if arguments.flag("if-changed") { body["ifExists"] = .string("returnExisting") }
        let endpoint = (url.hasSuffix("/") ? String(url.dropLast()) : url) + "/api/live_activity_schemas"
        let response: HTTPClient.Response
        do {
            response = try HTTPClient.send(
                method: "POST", url: endpoint,
                headers: ["Authorization: Api \(token)", "Content-Type: application/json", "Accept: application/json"],
                body: JSONWriter.bytes(.object(body)), timeoutSeconds: timeoutSeconds)
        } catch {
            Console.fail("\(endpoint): \(error.description)", status: Exit.other)
        }
        report(response)
    }

    /// Prints the outcome and exits with its status.
    private static func report(_ response: HTTPClient.Response) -> Never {
        let json = try? JSONParser.parse(response.body)
        let message = json?["message"]?.stringValue ?? String(decoding: response.body.prefix(500), as: UTF8.self)
        switch response.status {
        case 200:
            guard let version = json?["schema"]?["version"]?.integerLexemeValue else {
                Console.fail("unexpected answer: \(message)", status: Exit.other)
            }
            for problem in json?["compatibility"]?["problems"]?.arrayValue ?? [] {
                let against = problem["version"]?.integerLexemeValue.map { " (against version \($0))" } ?? ""
                Console.message("warning: \(problem["path"]?.stringValue ?? "-"): \(problem["message"]?.stringValue ?? "")\(against)")
            }
            for warning in json?["warnings"]?.arrayValue ?? [] {
                Console.message("warning: \(warning["path"]?.stringValue ?? "-"): \(warning["message"]?.stringValue ?? "")")
            }
            print(json?["existing"]?.boolValue == true ? "\(version) unchanged" : "\(version)")
            exit(0)
        case 409 where message.contains("compatib"):
            for line in problems(message) { Console.message("incompatible: \(line)") }
            exit(Exit.incompatible)
        case 400:
            for line in problems(message) { Console.message("invalid: \(line)") }
            exit(Exit.ruleFailed)
        default:
            Console.fail("HTTP \(response.status): \(message)", status: Exit.other)
        }
    }

    /// A message listing several findings (`…: a (…); b (…)`) as one finding per line.
    private static func problems(_ message: String) -> [String] {
        guard let colon = message.range(of: "versions: ") else { return [message] }
        return message[colon.upperBound...].split(separator: "; ").map(String.init)
    }

    private static func token(_ arguments: Arguments, environment: [String: String]) throws -> String {
        let raw: String
        if let path = arguments.option("token-file") {
            raw = try read(path)
        } else if let value = environment["REGISTRY_TOKEN"], !value.isEmpty {
            raw = value
        } else {
            throw UsageError("no token: pass --token-file FILE or set REGISTRY_TOKEN")
        }
        let token = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw UsageError("the token must be one line of printable ASCII")
        }
        return token
    }

    private static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { Console.fail("cannot read \(path)", status: Exit.other) }
        guard let text = String(data: data, encoding: .utf8) else { Console.fail("\(path) is not UTF-8 text", status: Exit.other) }
        return text
    }
}
