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
///
/// Each connection's clock is its own object, kept in libmicrohttpd's socket context: a request
/// moves it with two atomic stores, never a lock or a table lookup (a striped table touched three
/// times per request cost about 7 % of a cached GET). Only opening, closing and the sweep take
/// the table's lock.
final class ReceiveDeadlines: Sendable {
    /// One connection's receiving clock. Written by its event loop, read by the sweeper.
    final class Clock: Sendable {
        let socket: Int32
        /// Monotonic nanoseconds since the connection started receiving; 0 while it is not.
        fileprivate let receivingSince: Atomic<Int64>
        /// True until the first request head of the connection has arrived.
        fileprivate let awaitingFirstHead = Atomic<Bool>(true)

        fileprivate init(socket: Int32, now: Int64) {
            self.socket = socket
            receivingSince = Atomic(now)
        }

        /// The request head has arrived (the body may still be on its way).
        func headReceived() {
            awaitingFirstHead.store(false, ordering: .relaxed)
        }

        /// The request has fully arrived; its handler runs now.
        func handling() {
            receivingSince.store(0, ordering: .relaxed)
        }

        /// The previous request is done; the next one (on a kept-alive connection) is awaited.
        func awaitingNext() {
            receivingSince.store(ReceiveDeadlines.monotonicNanoseconds(), ordering: .relaxed)
        }
    }

    private let limitNanoseconds: Int64
    /// A new connection must send a complete request head within this, much sooner than
    /// `limit`: idle sockets that never ask for anything would otherwise hold connection
    /// slots other clients need.
    private let headLimitNanoseconds: Int64
    /// Every open connection's clock, by connection; the owner of the clocks MHD points to.
    private let clocks = Mutex<[UInt: Clock]>([:])

    init(limitSeconds: Int, headLimitSeconds: Int) {
        limitNanoseconds = Int64(limitSeconds) * 1_000_000_000
        headLimitNanoseconds = Int64(min(limitSeconds, headLimitSeconds)) * 1_000_000_000
    }

    /// A new connection: its clock starts now. Returns the clock, which the caller keeps in the
    /// connection's socket context for the per-request calls; it lives until `closed`.
    func opened(_ connection: OpaquePointer, socket: Int32) -> Clock {
        let clock = Clock(socket: socket, now: Self.monotonicNanoseconds())
        clocks.withLock { clocks in
            // A descriptor number is reused once closed; forget any stale entry holding it.
            for (key, entry) in clocks where entry.socket == socket { clocks[key] = nil }
            clocks[Self.key(connection)] = clock
        }
        return clock
    }

    func closed(_ connection: OpaquePointer) {
        _ = clocks.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Shuts down every connection over its deadline.
    func sweep() {
        let now = Self.monotonicNanoseconds()
        clocks.withLock { clocks in
            for clock in clocks.values {
                let since = clock.receivingSince.load(ordering: .relaxed)
                let limit = clock.awaitingFirstHead.load(ordering: .relaxed) ? headLimitNanoseconds : limitNanoseconds
                guard since != 0, now - since > limit else { continue }
                shutdown(clock.socket, Int32(SHUT_RDWR))
                // Only if it did not move on meanwhile: a connection that started handling stays so.
                _ = clock.receivingSince.compareExchange(expected: since, desired: 0, ordering: .relaxed)
            }
        }
    }

    /// Never 0 in practice (the clock counts from boot), which `receivingSince` uses for "not receiving".
    static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return max(1, Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
