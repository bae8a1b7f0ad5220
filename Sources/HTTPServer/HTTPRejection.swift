/// Requests the server refuses before the handler sees them; the application still chooses
/// how the refusal looks (status, error body), so these go to the `rejection` closure.
public enum HTTPRejection: Sendable, Equatable {
    /// The body is (or would become) larger than `HTTPServerConfiguration.maxBodyBytes`.
    case bodyTooLarge(limit: Int)
    /// The path, a query name or value, or a header is not valid UTF-8 or contains NUL.
    /// The associated text says which part is wrong.
    case invalidRequestTarget(String)
    /// The server is stopping and no longer starts handlers; the client should retry elsewhere.
    case shuttingDown
}
