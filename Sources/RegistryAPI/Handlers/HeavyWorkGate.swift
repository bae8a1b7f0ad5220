import Foundation
import Registry

/// Lets at most `permits` CPU-heavy requests (publishes, dry runs and uncached forms of large
/// schemas) run at once, so that they cannot take every core and handler thread from
/// cheap reads, of other accounts above all. A few more may wait their turn, briefly; past
/// that, or past the wait, the request is answered 503 with `Retry-After` at once instead of
/// holding a handler thread that a read could use.
///
/// `@unchecked Sendable`: `running` and `waiting` are only touched with `condition` locked.
final class HeavyWorkGate: @unchecked Sendable {
    let permits: Int
    let maxWaiting: Int
    let maxWaitSeconds: Double
    private let condition = NSCondition()
    private var running = 0
    private var waiting = 0

    init(permits: Int, maxWaiting: Int, maxWaitSeconds: Double = 5) {
        self.permits = max(1, permits)
        self.maxWaiting = max(0, maxWaiting)
        self.maxWaitSeconds = maxWaitSeconds
    }

    /// Runs `body` holding one permit when `heavy`, else at once: small schemas cost little to
    /// review or render, and must not queue behind large ones.
    func run<T>(heavy: Bool = true, _ body: () throws(RegistryError) -> T) throws(RegistryError) -> T {
        guard heavy else { return try body() }
        try enter()
        defer { leave() }
        return try body()
    }

    private func enter() throws(RegistryError) {
        condition.lock()
        defer { condition.unlock() }
        if running < permits {
            running += 1
            return
        }
        guard waiting < maxWaiting else { throw Self.busy }
        waiting += 1
        defer { waiting -= 1 }
        let deadline = Date(timeIntervalSinceNow: maxWaitSeconds)
        while running >= permits {
            if !condition.wait(until: deadline), running >= permits { throw Self.busy }
        }
        running += 1
    }

    private func leave() {
        condition.lock()
        running -= 1
        condition.signal()
        condition.unlock()
    }

    static let busy = RegistryError.unavailable(
        "the server is busy with compatibility reviews and large forms; retry in a moment", retryAfterSeconds: 1)
}
