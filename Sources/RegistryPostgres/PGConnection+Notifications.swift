import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

extension PGConnection {
    /// Waits up to `milliseconds` for `NOTIFY` messages on channels this session `LISTEN`s to,
    /// returning their payloads (empty on timeout), or until `descriptor` (when not -1) is
    /// readable. A lost connection throws, so the follower can reconnect and treat everything
    /// as possibly missed.
    public func notifications(waitingUpTo milliseconds: Int32, orUntilReadable descriptor: Int32 = -1) throws(PGError)
        -> [String]
    {
        var payloads = drainNotifications()
        guard payloads.isEmpty else { return payloads }
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            invalidate()
            throw PGError(kind: .connectionLost, debugDetail: "no socket")
        }
        // poll ignores a negative descriptor.
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, 2, milliseconds)
        if ready < 0 && errno != EINTR {
            invalidate()
            throw PGError(kind: .connectionLost, debugDetail: "poll failed: errno \(errno)")
        }
        if ready > 0 && descriptors[0].revents != 0 {
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
