import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

extension PGConnection {
    /// Waits up to `milliseconds` for `NOTIFY` messages on channels this session `LISTEN`s to,
    /// returning their payloads (empty on timeout). A lost connection throws, so the listener
    /// can reconnect and treat everything as possibly missed.
    public func notifications(waitingUpTo milliseconds: Int32) throws(PGError) -> [String] {
        var payloads = drainNotifications()
        guard payloads.isEmpty else { return payloads }
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            invalidate()
            throw PGError(kind: .connectionLost, debugDetail: "no socket")
        }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 && errno != EINTR {
            invalidate()
            throw PGError(kind: .connectionLost, debugDetail: "poll failed: errno \(errno)")
        }
        if ready > 0 {
            guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
                invalidate()
                throw PGError(kind: .connectionLost, debugDetail: String(cString: PQerrorMessage(handle)))
            }
            payloads = drainNotifications()
        }
        return payloads
    }

    private func drainNotifications() -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }
}
