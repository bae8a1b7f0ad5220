import Foundation
import Registry
import SwiftReader

/// `schema-registry publish`: publishes a schema from a CI pipeline, from the Swift source of
/// the `ActivityAttributes` type (`--swift PATH --type NAME`, a file or a directory of them) or a JSON Schema file
/// (`--schema FILE --type NAME`). Prints the version (`N`, or `N unchanged` when
/// `--if-changed` found the newest version identical). Exit status: 0 published or unchanged,
/// 3 refused as incompatible, 4 a schema rule failed, 2 usage, 1 anything else. Problems go
/// to stderr, one per line, with their paths.
enum PublishCommand {
    typealias Exit = RegistryClient.Exit

    /// `--token` is declared so that it is refused with a pointer to `--token-file` (a secret
    /// on the command line ends up in shell history and process lists).
    static let syntax = CommandSyntax(
        command: "publish",
        options: [
            .value("url"), .value("token-file"), .value("token"), .value("application"), .value("type"), .value("swift"),
            .value("schema"), .flag("if-changed"), .flag("require-compatible"), .repeatable("label"), .value("notes"),
        ])

    /// `--label key=value` (repeatable) as the body's `labels`; the server checks the rules.
    static func labels(_ values: [String]) throws -> JSONObject {
        var labels = JSONObject()
        for value in values {
            let parts = value.unicodeScalars.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String(String.UnicodeScalarView($0)) }
            guard parts.count == 2, !parts[0].isEmpty else { throw UsageError("--label takes key=value, got \(value)") }
            guard labels[parts[0]] == nil else { throw UsageError("--label \(parts[0]) given twice") }
            labels[parts[0]] = .string(parts[1])
        }
        return labels
    }

    static func run(_ arguments: Arguments, environment: [String: String]) throws {
        guard (arguments.option("swift") == nil) != (arguments.option("schema") == nil) else {
            throw UsageError("give exactly one of --swift PATH or --schema FILE")
        }
        let application = try arguments.requiredOption("application")
        let attributesType = try arguments.requiredOption("type")
        let client = try RegistryClient(arguments, environment: environment)
        let jsonSchema: String
        if let swift = arguments.option("swift") {
            let files = SwiftSourceLoader.load([swift], status: Exit.other)
            do {
                jsonSchema = JSONPrettyWriter.string(try SwiftSchemaReader.schema(fromSwiftFiles: files, typeName: attributesType))
            } catch {
                Console.message("\(error.file ?? swift):\(error.line):\(error.column): \(error.message)")
                exit(Exit.ruleFailed)
            }
        } else {
            jsonSchema = RegistryClient.read(try arguments.requiredOption("schema"))
        }

        var body: JSONObject = [
            "application": .string(application), "attributesType": .string(attributesType), "jsonSchema": .string(jsonSchema),
        ]
        if arguments.flag("require-compatible") { body["requireCompatible"] = .bool(true) }
        if arguments.flag("if-changed") { body["ifExists"] = .string("returnExisting") }
        let labels = try labels(arguments.allValues("label"))
        if !labels.isEmpty { body["labels"] = .object(labels) }
        if let notes = arguments.option("notes") { body["release_notes"] = .string(notes) }
        let (status, json, message) = client.post("/api/live_activity_schemas", body)
        switch status {
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
        case 409 where message.contains("compatib"):
            for line in findings(message) { Console.message("incompatible: \(line)") }
            exit(Exit.incompatible)
        case 400:
            for line in findings(message) { Console.message("invalid: \(line)") }
            exit(Exit.ruleFailed)
        default:
            Console.fail("HTTP \(status): \(message)", status: Exit.other)
        }
    }

    /// A message listing several findings (`…versions: a (…); b (…)`) as one finding per line.
    private static func findings(_ message: String) -> [String] {
        guard let colon = message.range(of: "versions: ") else { return [message] }
        return message[colon.upperBound...].split(separator: "; ").map(String.init)
    }
}
