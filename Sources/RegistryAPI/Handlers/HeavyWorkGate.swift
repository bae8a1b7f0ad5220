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

    /// A request waiting for a permit, resumed exactly once: admitted with a permit handed
    /// over, or refused when its wait ran out.
    private struct Waiter {
        let id: UInt64
        let resume: CheckedContinuation<Bool, Never>
    }

    /// Requests queued for a permit now.
    var waiting: Int { state.withLock { $0.queue.count } }

    init(permits: Int, maxWaiting: Int, maxWaitSeconds: Double = PlacementLimits.heavyWaitSeconds, refusal: RegistryError = HeavyWorkGate.busy) {
        self.refusal = refusal
        self.permits = max(1, permits)
        self.maxWaiting = max(0, maxWaiting)
        self.maxWaitSeconds = maxWaitSeconds
    }

    /// `body`, holding a permit while it runs: one at once when free, else after a wait in the
    /// queue that holds no thread; `refusal` when the queue is full or the wait runs out.
    func holding<T>(_ body: () async throws(RegistryError) -> T) async throws(RegistryError) -> T {
        let permit = try await permit()
        defer { permit.release() }
        return try await body()
    }

    /// A permit, at once when one is free, else after a wait in the queue that holds no thread;
    /// `refusal` when the queue is full or the wait runs out. The holder gives it back where
    /// its work ends (a handler thread), not after hopping back to its event loop, so a busy
    /// loop never keeps a permit from the next request.
    func permit() async throws(RegistryError) -> Permit {
        try await acquire()
        return Permit(self)
    }

    /// One request's permit; released once, by whichever of its holders gets there first.
    final class Permit: Sendable {
        private let gate: HeavyWorkGate
        private let released = Atomic<Bool>(false)

        fileprivate init(_ gate: HeavyWorkGate) { self.gate = gate }

        func release() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            gate.release()
        }
    }

    private func acquire() async throws(RegistryError) {
        let free = state.withLock { state in
            guard state.running < permits else { return false }
            state.running += 1
            return true
        }
        if free { return }
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let queued: UInt64? = state.withLock { state in
                // A permit may have come back since the first look.
                if state.running < permits {
                    state.running += 1
                    return nil
                }
                guard state.queue.count < maxWaiting else { return 0 }
                state.nextID += 1
                state.queue.append(Waiter(id: state.nextID, resume: continuation))
                return state.nextID
            }
            switch queued {
            case nil: continuation.resume(returning: true)
            case 0: continuation.resume(returning: false)
            case let id?: expire(id)
            }
        }
        if !admitted { throw refusal }
    }

    /// Refuses waiter `id` once its wait has run out, unless it was admitted meanwhile.
    private func expire(_ id: UInt64) {
        DispatchQueue.global().asyncAfter(deadline: .now() + maxWaitSeconds) {
            let expired = self.state.withLock { state -> Waiter? in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queue.remove(at: index)
            }
            expired?.resume.resume(returning: false)
        }
    }

    /// Hands the permit straight to the oldest waiting request, if there is one.
    private func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.resume.resume(returning: true)
    }

    static let busy = RegistryError.unavailable(
        "the server is busy with compatibility reviews and large forms; retry in a moment", retryAfterSeconds: 1)
}
