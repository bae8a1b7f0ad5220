import Foundation
import Registry

/// `schema-registry schema-from-swift FILE.swift --type NAME`: prints the `jsonSchema` of an
/// `ActivityAttributes` type, so authors publish from the Swift they already have.
enum SchemaFromSwiftCommand {
    static func run(_ words: [String]) throws {
        let arguments = try Arguments(words[...])
        let path = try arguments.requiredPositional(0, "FILE.swift")
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
