import Striping
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Cuts off clients that take too long to send a request. libmicrohttpd's connection timeout
/// only measures idleness, so a client sending a byte a second would hold a connection (and,
/// with enough of them, every connection) forever.
///
/// A connection is "receiving" from when it opens or its previous request completes until its
/// request has fully arrived and the handler runs; a sweep shuts down the socket of any
/// connection receiving for longer than the limit, and libmicrohttpd then closes it. Handlers
/// and responses are never cut off by this.
final class ReceiveDeadlines: Sendable {
    private struct Entry {
        var socket: Int32
        var receivingSince: ContinuousClock.Instant?
        /// True until the first request head of the connection has arrived.
        var awaitingFirstHead = true
    }

    private let limit: Duration
    /// A new connection must send a complete request head within this, much sooner than
    /// `limit`: idle sockets that never ask for anything would otherwise hold connection
    /// slots other clients need.
    private let headLimit: Duration
    /// Striped by connection: each request touches its connection's entry twice.
    private let entries = Striped<[UInt: Entry]>(count: 32) { [:] }

    init(limitSeconds: Int, headLimitSeconds: Int) {
        limit = .seconds(limitSeconds)
        headLimit = .seconds(min(limitSeconds, headLimitSeconds))
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        // A descriptor number is reused once closed; forget any stale entry holding it.
        entries.forEach { entries in
            for (key, entry) in entries where entry.socket == socket { entries[key] = nil }
        }
        update(connection) { $0[Self.key(connection)] = Entry(socket: socket, receivingSince: .now) }
    }

    /// The request head has arrived (the body may still be on its way).
    func headReceived(_ connection: OpaquePointer) {
        update(connection) { $0[Self.key(connection)]?.awaitingFirstHead = false }
    }

    /// The request has fully arrived; its handler runs now.
    func handling(_ connection: OpaquePointer) {
        update(connection) { $0[Self.key(connection)]?.receivingSince = nil }
    }

    /// The previous request is done; the next one (on a kept-alive connection) is awaited.
    func awaitingNext(_ connection: OpaquePointer) {
        update(connection) { $0[Self.key(connection)]?.receivingSince = .now }
    }

    func closed(_ connection: OpaquePointer) {
        update(connection) { $0[Self.key(connection)] = nil }
    }

    /// Shuts down every connection over its deadline.
    func sweep(now: ContinuousClock.Instant = .now) {
        entries.forEach { entries in
            for (key, entry) in entries {
                guard let since = entry.receivingSince, now - since > (entry.awaitingFirstHead ? headLimit : limit) else {
                    continue
                }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                entries[key]?.receivingSince = nil
            }
        }
    }

    private func update(_ connection: OpaquePointer, _ change: (inout [UInt: Entry]) -> Void) {
        entries.withStripe(for: Int(bitPattern: Self.key(connection))) { entries in change(&entries) }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
