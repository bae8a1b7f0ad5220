import Foundation
import Registry
import SwiftReader

/// `schema-registry schema-from-swift FILE.swift --type NAME`: prints the `jsonSchema` of an
/// `ActivityAttributes` type, so authors publish from the Swift they already have.
enum SchemaFromSwiftCommand {
    static let syntax = CommandSyntax(command: "schema-from-swift", positionals: ["FILE.swift"], options: [.value("type")])

    static func run(_ arguments: Arguments) throws {
        let path = arguments.positional[0]
        let typeName = try arguments.requiredOption("type")
        guard let data = FileManager.default.contents(atPath: path) else {
            Console.fail("cannot read \(path)", status: 1)
        }
        guard let source = String(data: data, encoding: .utf8) else {
            Console.fail("\(path) is not UTF-8 text", status: 1)
        }
        do {
            print(JSONPrettyWriter.string(try SwiftSchemaReader.schema(fromSwiftSource: source, typeName: typeName)))
        } catch {
            Console.fail("\(path): \(error.description)", status: 1)
        }
    }
}
