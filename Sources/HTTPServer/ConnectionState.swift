import CMicroHTTPD

/// What stays the same for every request of one connection, made once when it opens and kept in
/// libmicrohttpd's socket context: its receive clock, and its seat in the waiting room (its event
/// loop and client address), which every request would otherwise look up again.
final class ConnectionState {
    let clock: ReceiveDeadlines.Clock
    let seat: WaitingRoom.Seat?

    init(clock: ReceiveDeadlines.Clock, seat: WaitingRoom.Seat?) {
        self.clock = clock
        self.seat = seat
    }

    /// The state the connection callback stored for `connection`; nil once it closed. Only on
    /// the connection's event loop.
    static func of(_ connection: OpaquePointer) -> ConnectionState? {
        guard let pointer = cmhd_connection_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionState>.fromOpaque(pointer).takeUnretainedValue()
    }
}
