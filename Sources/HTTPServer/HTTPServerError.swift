/// Why the server could not start, worded for an operator reading a start-up failure.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
