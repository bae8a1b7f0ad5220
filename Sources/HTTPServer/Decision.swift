/// What the application decides for a request on the event loop, after reading it once:
/// answer now, wait for I/O the loop drives, or hand a unit of work to a handler thread. Each
/// case carries whatever was decided already (the route, the caller, the decoded request), so
/// nothing is done twice.
public enum Decision: Sendable {
    /// Answer at once, on the event loop: from memory, or an error found before any I/O.
    case respond(HTTPResponse)
    /// Run on a handler thread, with the connection suspended: the work may block or take
    /// much CPU, then answers, or parks the request in the waiting room (`HandlerAnswer.wait`).
    case work(@Sendable () -> HandlerAnswer)
    /// Start I/O that the event loop drives (a database read on the loop's own session) with
    /// the connection suspended and no thread waiting; the completion, called exactly once,
    /// says what happens next. It may be called before `start` returns.
    case later(@Sendable (_ completion: @escaping @Sendable (Decision) -> Void) -> Void)
}
