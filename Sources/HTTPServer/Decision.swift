/// What the application decides for a request on the event loop, after reading it once:
/// answer now, wait for I/O the loop drives, hand a unit of work to a handler thread, or park
/// until an event. Each case carries whatever was decided already (the route, the caller, the
/// decoded request), so nothing is done twice.
public enum Decision: Sendable {
    /// Answer at once, on the event loop: from memory, or an error found before any I/O.
    case respond(HTTPResponse)
    /// Run on a handler thread, with the connection suspended: the work may block or take
    /// much CPU, then decides what follows (an answer, usually); anything but an answer
    /// continues on the connection's event loop.
    case work(@Sendable () -> Decision)
    /// Start I/O that the event loop drives (a database read on the loop's own session) with
    /// the connection suspended and no thread waiting; the completion, called exactly once,
    /// says what happens next. It may be called before `start` returns.
    case later(@Sendable (_ completion: @escaping @Sendable (Decision) -> Void) -> Void)
    /// Park the request, with no thread and its connection suspended, until `WaitingRoom.wake`
    /// names its key or its deadline passes; `then` then decides again, on the connection's
    /// event loop (it may start I/O there, answer, or park again).
    case wait(WaitRequest)
}
