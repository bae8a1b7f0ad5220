import Foundation
import Registry

/// `schema-registry check-values`: checks the values a journey would send (a JSON file with
/// `contentState` and, for a start, `attributes`) against a published version, through
/// `POST …/{attributesType}/{version}:check`. Exit status: 0 valid (warnings on stderr),
/// 4 a value breaks the schema (one `error: PATH: message` line each), 2 usage, 1 anything else.
enum CheckValuesCommand {
    typealias Exit = RegistryClient.Exit

    /// `--token` is declared so that it is refused with a pointer to `--token-file` (a secret
    /// on the command line ends up in shell history and process lists).
    static let syntax = CommandSyntax(
        command: "check-values", positionals: ["FILE"],
        options: [
            .value("url"), .value("token-file"), .value("token"), .value("application"), .value("type"), .value("version"),
            .value("event"),
        ])

    static func run(_ arguments: Arguments, environment: [String: String]) throws {
        let application = try arguments.requiredOption("application")
        let attributesType = try arguments.requiredOption("type")
        let version = try arguments.requiredIntegerOption("version")
        let event = try arguments.requiredOption("event")
        let path = arguments.positional[0]
        let client = try RegistryClient(arguments, environment: environment)
        guard case .object(let values)? = try? JSONParser.parse(RegistryClient.read(path)) else {
            Console.fail("\(path): must be a JSON object with contentState (and attributes)", status: Exit.other)
        }
        var body = values
        body["application"] = .string(application)
        body["event"] = .string(event)
        let target = "/api/live_activity_schemas/\(RegistryClient.pathSegment(attributesType))/\(version):check"
        let (status, json, message) = client.post(target, body)
        guard status == 200, let valid = json?["valid"]?.boolValue else {
            Console.fail("HTTP \(status): \(message)", status: status == 400 ? 2 : Exit.other)
        }
        for problem in json?["problems"]?.arrayValue ?? [] {
            let severity = problem["severity"]?.stringValue ?? "error"
            Console.message("\(severity): \(problem["path"]?.stringValue ?? "-"): \(problem["message"]?.stringValue ?? "")")
        }
        if valid { print("valid") } else { exit(Exit.ruleFailed) }
    }
}
