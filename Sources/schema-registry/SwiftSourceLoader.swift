import Foundation
import SwiftReader

/// Loads the Swift files `schema-from-swift` and `publish --swift` read: each path is a file,
/// or a directory whose `.swift` files below it are all read (hidden folders such as `.build`
/// skipped), so a type may use types declared in other files of its target.
enum SwiftSourceLoader {
    /// A target larger than this is not an app's shared Live Activity code.
    static let maxFiles = 2_000
    static let maxBytes = 32 << 20

    /// The files in path order (UTF-8 bytes, so the order is the same on every machine);
    /// exits with status `status` and a message naming the path when one cannot be read.
    static func load(_ paths: [String], status: Int32) -> [SwiftSourceFile] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                Console.fail("cannot read \(path)", status: status)
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let found = swiftFiles(under: path, status: status)
            guard !found.isEmpty else { Console.fail("\(path): no .swift files below this directory", status: status) }
            files += found
        }
        guard files.count <= maxFiles else {
            Console.fail("\(files.count) Swift files given; at most \(maxFiles) are read", status: status)
        }
        var total = 0
        return files.map { path in
            guard let data = FileManager.default.contents(atPath: path) else { Console.fail("cannot read \(path)", status: status) }
            total += data.count
            guard total <= maxBytes else { Console.fail("the Swift files exceed \(maxBytes >> 20) MB", status: status) }
            guard let text = String(data: data, encoding: .utf8) else { Console.fail("\(path) is not UTF-8 text", status: status) }
            return SwiftSourceFile(path: path, text: text)
        }
    }

    private static func swiftFiles(under directory: String, status: Int32) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: directory) else {
            Console.fail("cannot read \(directory)", status: status)
        }
        var found: [String] = []
        while let relative = walk.nextObject() as? String {
            let components = relative.split(separator: "/")
            if components.last?.hasPrefix(".") == true {
                walk.skipDescendants()
                continue
            }
            guard relative.hasSuffix(".swift") else { continue }
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(path)
            }
            guard found.count <= maxFiles else {
                Console.fail("\(directory): more than \(maxFiles) Swift files below it", status: status)
            }
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `Sources/Shared/Order.swift: line 3: …`; an error about the sources as a whole (no such
    /// type) names the paths the user gave.
    static func message(_ error: SwiftSchemaError, paths: [String]) -> String {
        error.file == nil ? "\(paths.joined(separator: ", ")): \(error.description)" : error.description
    }
}
