import Foundation
import Registry
import SwiftReader

/// `schema-registry schema-from-swift PATH... --type NAME`: prints the `jsonSchema` of an
/// `ActivityAttributes` type, so authors publish from the Swift they already have. Each PATH
/// is a Swift file or a directory of them, read together as one target.
enum SchemaFromSwiftCommand {
    static let syntax = CommandSyntax(
        command: "schema-from-swift", positionals: ["PATH"], options: [.value("type")], lastPositionalRepeats: true)

    static func run(_ arguments: Arguments) throws {
        let paths = arguments.positional
        let typeName = try arguments.requiredOption("type")
        let files = SwiftSourceLoader.load(paths, status: 1)
        do {
            print(JSONPrettyWriter.string(try SwiftSchemaReader.schema(fromSwiftFiles: files, typeName: typeName)))
        } catch {
            Console.fail(SwiftSourceLoader.message(error, paths: paths), status: 1)
        }
    }
}
