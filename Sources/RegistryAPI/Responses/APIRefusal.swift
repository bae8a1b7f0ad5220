import Registry

/// Refusals that exist only because the registry is served over HTTP: no domain operation
/// meets them, so the domain's `RegistryError` has no words for them. Each answers in the same
/// error shape, with its gRPC code and message; `ErrorResponse` adds the headers it carries.
enum APIRefusal: Sendable, Equatable {
    /// The path exists, but not for this method: 405, with `Allow` listing the methods it has.
    case methodNotAllowed(method: String, allow: [String])
    /// The request body is over the configured limit: 413.
    case bodyTooLarge(limit: Int)

    /// The code and message the body carries.
    var error: RegistryError {
        switch self {
        case .methodNotAllowed(let method, _):
            RegistryError(code: .unimplemented, message: "method \(ClientText.shown(method)) is not allowed here")
        case .bodyTooLarge(let limit):
            RegistryError(code: .resourceExhausted, message: "request body is larger than \(limit) bytes")
        }
    }

    /// A stopping server refuses requests that would start new work: 503, to be retried on
    /// another replica.
    static let shuttingDown = RegistryError.unavailable("the server is shutting down; retry the request")

    /// The headers the answer carries besides the content type.
    var headers: [(String, String)] {
        switch self {
        case .methodNotAllowed(_, let allow): [("Allow", allow.joined(separator: ", "))]
        case .bodyTooLarge: []
        }
    }
}
