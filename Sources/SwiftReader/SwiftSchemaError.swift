/// Why a Swift source cannot be turned into a schema. It points at a 1-based line and column
/// because the author has to find the construct in their own file, and the message names the
/// property or type involved.
public struct SwiftSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Counted from 1, as editors count.
    public let line: Int
    /// Counted in Unicode scalars from 1; a tab counts as one.
    public let column: Int
    /// Names the property or type involved, without the location.
    public let message: String

    init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    init(_ message: String, at location: SourceLocation) {
        self.init(line: location.line, column: location.column, message: message)
    }

    /// `line 12: unsupported type 'Set<String>' for property 'tags'`.
    public var description: String { "line \(line): \(message)" }
}

/// A 1-based position in the Swift source.
struct SourceLocation: Sendable, Equatable {
    var line: Int
    var column: Int

    /// For errors about the source as a whole, such as a missing type.
    static let start = SourceLocation(line: 1, column: 1)
}
