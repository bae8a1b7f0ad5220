/// The gRPC status codes the API answers with; the numbers are the wire values the gateway's
/// error body carries in `code`.
public enum GRPCCode: Int, Sendable, CaseIterable {
    case invalidArgument = 3
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case unauthenticated = 16
}

/// The one error type of the service, shaped like a gRPC status: a code, a message and
/// details. It knows nothing of the transport: the API layer chooses the HTTP status and any
/// headers from the code, in one place.
///
/// `message` is shown to clients: it names the offending field and never carries secrets,
/// SQL or connection strings. `cause` is what went wrong underneath (a SQLSTATE, a statement's
/// name), for the log only: it is never rendered into a response and plays no part in equality.
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: GRPCCode
    public let message: String
    /// Machine-readable detail objects for the body's `details` (a refused publish's
    /// compatibility report); usually none.
    public let details: [JSONValue]
    /// When the same request is expected to succeed again, after how many seconds (gRPC's
    /// `RetryInfo`): a refusal because the server is momentarily full, not because of the request.
    public let retryAfterSeconds: Int?
    /// Why a server-side failure happened, for the one log line of the request that met it.
    public let cause: Cause?

    public init(
        code: GRPCCode, message: String, details: [JSONValue] = [], retryAfterSeconds: Int? = nil, cause: Cause? = nil
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.retryAfterSeconds = retryAfterSeconds
        self.cause = cause
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: RegistryError, rhs: RegistryError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public static func invalidArgument(_ message: String) -> RegistryError {
        RegistryError(code: .invalidArgument, message: message)
    }
    public static func unauthenticated(_ message: String) -> RegistryError {
        RegistryError(code: .unauthenticated, message: message)
    }
    public static func permissionDenied(_ message: String) -> RegistryError {
        RegistryError(code: .permissionDenied, message: message)
    }
    public static func notFound(_ message: String) -> RegistryError {
        RegistryError(code: .notFound, message: message)
    }
    public static func alreadyExists(_ message: String) -> RegistryError {
        RegistryError(code: .alreadyExists, message: message)
    }
    public static func unavailable(_ message: String, retryAfterSeconds: Int? = nil) -> RegistryError {
        RegistryError(code: .unavailable, message: message, retryAfterSeconds: retryAfterSeconds)
    }
    public static func `internal`(_ message: String = "internal error") -> RegistryError {
        RegistryError(code: .internal, message: message)
    }
}
