import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State split into independently locked stripes. Event loops and many more handler threads
/// than cores (handlers block on the database) serve requests at once, and one lock taken by
/// every request — a metrics table, a lookup cache — was measured to cost more CPU than the
/// request itself (spinning and futex waits). Callers pick a stripe by key, or by thread for
/// per-thread tallies that are merged when read.
///
/// Inlinable, so that each caller's `State` is specialized in its own module: called generically
/// across the module boundary, every request paid for runtime metadata lookups here.
public final class Striped<State: Sendable>: Sendable {
    @usableFromInline
    final class Stripe: Sendable {
        @usableFromInline let state: Mutex<State>
        init(_ state: sending State) { self.state = Mutex(state) }
    }

    @usableFromInline let stripes: [Stripe]

    public init(count: Int, _ makeState: () -> State) {
        stripes = (0..<max(1, count)).map { _ in Stripe(makeState()) }
    }

    public var count: Int { stripes.count }

    /// The stripe for `hash` (any integer; it is mixed before use).
    @inlinable
    public func withStripe<Result: Sendable>(for hash: Int, _ body: (inout State) -> Result) -> Result {
        stripes[Self.index(hash, count: stripes.count)].state.withLock { body(&$0) }
    }

    /// The calling thread's stripe: threads mostly keep to their own.
    @inlinable
    public func withThreadStripe<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        withStripe(for: Int(bitPattern: UInt(pthread_self())), body)
    }

    /// Visits every stripe in turn (for merging or clearing).
    @inlinable
    public func forEach(_ body: (inout State) -> Void) {
        for stripe in stripes { stripe.state.withLock { body(&$0) } }
    }

    @inlinable
    static func index(_ hash: Int, count: Int) -> Int {
        var x = UInt64(UInt(bitPattern: hash))
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        return Int(x % UInt64(count))
    }
}
