import Foundation

/// Requests parked until an event or a deadline, holding no thread and no database
/// connection: only their suspended connection and a closure. A waker (`wake(key)`) or the
/// deadline hands each back to its connection's event loop, which looks again
/// (`WaitRequest.then`) and answers, or parks it again.
///
/// Bounded: past `capacity` parked requests a new one is woken at once with `.full`, for the
/// application to refuse. libmicrohttpd never times out a suspended connection, so a wait may
/// outlast the connection timeout; the timeout starts again once the answer is queued.
public final class WaitingRoom: @unchecked Sendable {
    /// A snapshot of the wake count of a key's stripe, taken before looking for events.
    public struct Ticket: Sendable {
        let key: [UInt8]
        let generation: UInt64
    }

    private struct Entry {
        let key: [UInt8]
        let deadline: ContinuousClock.Instant
        let wake: @Sendable (WakeReason) -> Void
    }

    public let capacity: Int

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    /// Wakes per stripe of keys; a ticket whose stripe moved on since it was taken missed one.
    private var generations = [UInt64](repeating: 0, count: 64)
    private var timerRunning = false
    private var stopping = false

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Requests parked now.
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.count
    }

    /// Take before looking for what the request waits for; park with it.
    public func ticket(_ key: String) -> Ticket {
        let bytes = Array(key.utf8)
        condition.lock()
        defer { condition.unlock() }
        return Ticket(key: bytes, generation: generations[Self.stripe(bytes)])
    }

    /// Wakes every request parked under `key` (compared as bytes).
    public func wake(_ key: String) {
        let bytes = Array(key.utf8)
        let woken = take { entry in entry.key == bytes } beforeTaking: { generations[Self.stripe(bytes)] += 1 }
        woken.forEach { $0(.notified) }
    }

    /// Wakes every parked request, for when wakes may have been missed (a lost notification
    /// session).
    public func wakeAll() {
        let woken = take { _ in true } beforeTaking: { for index in generations.indices { generations[index] += 1 } }
        woken.forEach { $0(.notified) }
    }

    /// Wakes everything with `.answerNow`; from now on nothing parks.
    func stop() {
        let woken = take { _ in true } beforeTaking: { stopping = true }
        woken.forEach { $0(.answerNow) }
    }

    /// Parks `request`; `wake` is called exactly once, from another thread or (when the
    /// request cannot park, or missed a wake) right away.
    func park(_ request: WaitRequest, wake: @escaping @Sendable (WakeReason) -> Void) {
        condition.lock()
        let immediate: WakeReason? =
            if stopping { .answerNow }
            else if generations[Self.stripe(request.ticket.key)] != request.ticket.generation { .notified }
            else if entries.count >= capacity { .full }
            else { nil }
        if immediate == nil {
            nextID += 1
            entries[nextID] = Entry(key: request.ticket.key, deadline: request.deadline, wake: wake)
            if timerRunning {
                condition.broadcast()
            } else {
                timerRunning = true
                let thread = Thread { [self] in expireLoop() }
                thread.name = "waiting-room"
                thread.start()
            }
        }
        condition.unlock()
        if let immediate { wake(immediate) }
    }

    private func take(
        _ matching: (Entry) -> Bool, beforeTaking: () -> Void
    ) -> [@Sendable (WakeReason) -> Void] {
        condition.lock()
        defer { condition.unlock() }
        beforeTaking()
        var woken: [@Sendable (WakeReason) -> Void] = []
        for (id, entry) in entries where matching(entry) {
            entries[id] = nil
            woken.append(entry.wake)
        }
        return woken
    }

    /// Sleeps until the earliest deadline, wakes what expired, and ends when nothing is parked
    /// (a room without waiters costs no thread).
    private func expireLoop() {
        let clock = ContinuousClock()
        condition.lock()
        while true {
            guard let earliest = entries.values.lazy.map(\.deadline).min() else {
                timerRunning = false
                condition.unlock()
                return
            }
            let now = clock.now
            if earliest > now {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(earliest - now)))
                continue
            }
            var expired: [@Sendable (WakeReason) -> Void] = []
            for (id, entry) in entries where entry.deadline <= now {
                entries[id] = nil
                expired.append(entry.wake)
            }
            condition.unlock()
            expired.forEach { $0(.deadline) }
            condition.lock()
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func stripe(_ key: [UInt8]) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        return Int(UInt(bitPattern: hasher.finalize()) % 64)
    }
}
