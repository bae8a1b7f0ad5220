import Synchronization
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
    }

    private let limit: Duration
    private let entries = Mutex<[UInt: Entry]>([:])

    init(limitSeconds: Int) {
        limit = .seconds(limitSeconds)
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        entries.withLock { entries in
            // A descriptor number is reused once closed; forget any stale entry holding it.
            for (key, entry) in entries where entry.socket == socket { entries[key] = nil }
            entries[Self.key(connection)] = Entry(socket: socket, receivingSince: .now)
        }
    }

    /// The request has fully arrived; its handler runs now.
    func handling(_ connection: OpaquePointer) {
        entries.withLock { $0[Self.key(connection)]?.receivingSince = nil }
    }

    /// The previous request is done; the next one (on a kept-alive connection) is awaited.
    func awaitingNext(_ connection: OpaquePointer) {
        entries.withLock { $0[Self.key(connection)]?.receivingSince = .now }
    }

    func closed(_ connection: OpaquePointer) {
        _ = entries.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Shuts down every connection over its deadline; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        entries.withLock { entries in
            var cut = 0
            for (key, entry) in entries {
                guard let since = entry.receivingSince, now - since > limit else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                entries[key]?.receivingSince = nil
                cut += 1
            }
            return cut
        }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
