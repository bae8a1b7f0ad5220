import Dispatch
import Registry
import Synchronization

/// Lets at most `permits` requests of one costly kind run at once: CPU-heavy requests
/// (publishes, dry runs, uncached forms and push checks of large schemas), so that they cannot
/// take every core and handler thread from cheap reads, of other accounts above all; and long
/// list pages, so that the memory they hold stays bounded. A few more may wait their turn,
/// briefly, in a queue that holds no thread (their connections stay suspended); past that, or
/// past the wait, the request is answered with `refusal` (503 with `Retry-After`).
///
/// A permit is handed from the work that returns it straight to the oldest waiting request, so
/// a newcomer cannot overtake the queue.
final class HeavyWorkGate: Sendable {
    let permits: Int
    let maxWaiting: Int
    let maxWaitSeconds: Double
    let refusal: RegistryError
    private let state = Mutex(State())

    private struct State {
        var running = 0
        var queue: [Waiter] = []
        var nextID: UInt64 = 0
    }

    /// A request waiting for a permit: `admit` goes on with the work once it has one, or fails
    /// it with `refusal`, exactly once.
    private struct Waiter {
        let id: UInt64
        let admit: Step.Continuation
        let work: Step.Work
    }

    /// Requests queued for a permit now.
    var waiting: Int { state.withLock { $0.queue.count } }

    init(permits: Int, maxWaiting: Int, maxWaitSeconds: Double = 5, refusal: RegistryError = HeavyWorkGate.busy) {
        self.refusal = refusal
        self.permits = max(1, permits)
        self.maxWaiting = max(0, maxWaiting)
        self.maxWaitSeconds = maxWaitSeconds
    }

    /// `work` for a handler thread, holding a permit while it runs when `heavy` (small schemas
    /// cost little to review or render, and must not queue behind large ones); queued without a
    /// thread while every permit is taken; `refusal` when the queue is full.
    func admit(heavy: Bool = true, _ work: @escaping Step.Work) throws(RegistryError) -> Step {
        guard heavy else { return .work(work) }
        let admitted: Bool = try state.withLock { state throws(RegistryError) in
            if state.running < permits {
                state.running += 1
                return true
            }
            guard state.queue.count < maxWaiting else { throw refusal }
            return false
        }
        if admitted { return .work(holding(work)) }
        return .later { continuation in self.queue(work, continuation) }
    }

    private func queue(_ work: @escaping Step.Work, _ continuation: @escaping Step.Continuation) {
        let id: UInt64? = state.withLock { state in
            // A permit may have come back since `enter` looked.
            if state.running < permits {
                state.running += 1
                return nil
            }
            state.nextID += 1
            state.queue.append(Waiter(id: state.nextID, admit: continuation, work: work))
            return state.nextID
        }
        guard let id else { return continuation(.success(.work(holding(work)))) }
        DispatchQueue.global().asyncAfter(deadline: .now() + maxWaitSeconds) {
            let expired = self.state.withLock { state -> Waiter? in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queue.remove(at: index)
            }
            expired?.admit(.failure(self.refusal))
        }
    }

    /// `work`, returning its permit when it ends: to the oldest waiting request if there is
    /// one, which then goes on to a handler thread with it.
    private func holding(_ work: @escaping Step.Work) -> Step.Work {
        { () throws(RegistryError) in
            defer {
                let next = self.state.withLock { state -> Waiter? in
                    guard !state.queue.isEmpty else {
                        state.running -= 1
                        return nil
                    }
                    return state.queue.removeFirst()
                }
                if let next { next.admit(.success(.work(self.holding(next.work)))) }
            }
            return try work()
        }
    }

    static let busy = RegistryError.unavailable(
        "the server is busy with compatibility reviews and large forms; retry in a moment", retryAfterSeconds: 1)
}
