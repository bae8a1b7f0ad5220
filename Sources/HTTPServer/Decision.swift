/// What the application decides for a request on the event loop, after reading it once:
/// answer now, or hand a unit of work to a handler thread. The work carries whatever was
/// decided already (the route, the caller, the decoded request), so nothing is done twice.
public enum Decision: Sendable {
    /// Answer at once, on the event loop: from memory, or an error found before any I/O.
    case respond(HTTPResponse)
    /// Run on a handler thread, with the connection suspended: the work may block (on the
    /// database), then answers, or parks the request in the waiting room (`HandlerAnswer.wait`).
    case work(@Sendable () -> HandlerAnswer)
}
