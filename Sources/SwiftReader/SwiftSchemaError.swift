/// Why a Swift source cannot be turned into a schema. It points at a file, a 1-based line and
/// column because the author has to find the construct in their own sources, and the message
/// names the property or type involved.
public struct SwiftSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path of the file, when the sources were read as named files; nil for a lone source text.
    public let file: String?
    /// Counted from 1, as editors count.
    public let line: Int
    /// Counted in Unicode scalars from 1; a tab counts as one.
    public let column: Int
    /// Names the property or type involved, without the location.
    public let message: String

    init(file: String? = nil, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    init(_ message: String, at location: SourceLocation) {
        self.init(file: location.file, line: location.line, column: location.column, message: message)
    }

    /// `Sources/Shared/Order.swift: line 12: unsupported type 'Set<String>' for property 'tags'`,
    /// or without the file for a lone source text.
    public var description: String { (file.map { "\($0): " } ?? "") + "line \(line): \(message)" }
}

/// A 1-based position in the Swift source.
struct SourceLocation: Sendable, Equatable {
    /// The file's path as the caller named it; nil for a lone source text.
    var file: String? = nil
    var line: Int
    var column: Int

    /// For errors about the source as a whole, such as a missing type.
    static let start = SourceLocation(line: 1, column: 1)

    static func start(of file: String?) -> SourceLocation { SourceLocation(file: file, line: 1, column: 1) }
}
