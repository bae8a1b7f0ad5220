/// The gRPC status codes the API answers with; the numbers are the wire values the gateway's
/// error body carries in `code`.
public enum GRPCCode: Int, Sendable {
    case invalidArgument = 3
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case unauthenticated = 16
}

/// The one error type of the service. It carries both the gRPC code and the HTTP status because
/// the mapping is not one-to-one here (RESOURCE_EXHAUSTED is 413, UNIMPLEMENTED is 405), and
/// deciding it where the error is raised keeps the HTTP layer a plain lookup.
///
/// `message` is shown to clients: it names the offending field and never carries secrets,
/// SQL or connection strings.
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: GRPCCode
    public let httpStatus: Int
    public let message: String
    /// Extra response headers this error implies (`Allow` for 405).
    public let headers: [(String, String)]
    /// Machine-readable detail objects for the body's `details` (a refused publish's
    /// compatibility report); usually none.
    public let details: [JSONValue]

    public init(code: GRPCCode, httpStatus: Int, message: String, headers: [(String, String)] = [], details: [JSONValue] = []) {
        self.code = code
        self.httpStatus = httpStatus
        self.message = message
        self.headers = headers
        self.details = details
    }

    public var description: String { "\(code) (\(httpStatus)): \(message)" }

    public static func == (lhs: RegistryError, rhs: RegistryError) -> Bool {
        lhs.code == rhs.code && lhs.httpStatus == rhs.httpStatus && lhs.message == rhs.message
    }

    public static func invalidArgument(_ message: String) -> RegistryError {
        RegistryError(code: .invalidArgument, httpStatus: 400, message: message)
    }
    public static func unauthenticated(_ message: String) -> RegistryError {
        RegistryError(code: .unauthenticated, httpStatus: 401, message: message)
    }
    public static func permissionDenied(_ message: String) -> RegistryError {
        RegistryError(code: .permissionDenied, httpStatus: 403, message: message)
    }
    public static func notFound(_ message: String) -> RegistryError {
        RegistryError(code: .notFound, httpStatus: 404, message: message)
    }
    public static func methodNotAllowed(_ message: String, allow: [String]) -> RegistryError {
        RegistryError(
            code: .unimplemented, httpStatus: 405, message: message,
            headers: [("Allow", allow.joined(separator: ", "))])
    }
    public static func alreadyExists(_ message: String) -> RegistryError {
        RegistryError(code: .alreadyExists, httpStatus: 409, message: message)
    }
    public static func payloadTooLarge(_ message: String) -> RegistryError {
        RegistryError(code: .resourceExhausted, httpStatus: 413, message: message)
    }
    public static func headersTooLarge(_ message: String) -> RegistryError {
        RegistryError(code: .resourceExhausted, httpStatus: 431, message: message)
    }
    public static func unavailable(_ message: String) -> RegistryError {
        RegistryError(code: .unavailable, httpStatus: 503, message: message)
    }
    public static func `internal`(_ message: String = "internal error") -> RegistryError {
        RegistryError(code: .internal, httpStatus: 500, message: message)
    }
}
