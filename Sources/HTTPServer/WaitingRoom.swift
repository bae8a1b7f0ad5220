import Foundation

/// Requests parked until an event or a deadline, holding no thread and no database
/// connection: only their suspended connection and task. A waker (`wake(key)`) or the
/// deadline resumes each task on its connection's event loop, which looks again and answers,
/// or waits again.
///
/// Bounded, because every parked request holds a connection: past `capacity` parked requests
/// in all, or `capacityPerAddress` from one client address, a new one is woken at once with
/// `.full`, for the application to refuse before it waits. The server adds its own bound per
/// event loop (`Seat`), so that waiters never hold the connections short requests and probes
/// need. libmicrohttpd never times out a suspended connection, so a wait may outlast the
/// connection timeout; the timeout starts again once the answer is queued.
public final class WaitingRoom: @unchecked Sendable {
    /// A snapshot of the wake count of a key's stripe, taken before looking for events.
    public struct Ticket: Sendable {
        let key: [UInt8]
        let generation: UInt64
    }

    /// Where a request's connection sits, set by the server (`RequestServices.seat`): its
    /// event loop and client address, and how many parked requests that loop's connections,
    /// and that address's connections on it, may hold. Each daemon accepts only up to its own
    /// share of the connections, so a loop whose share waiters took would leave new
    /// connections unaccepted however free the others are.
    public struct Seat: Sendable {
        let eventLoop: ObjectIdentifier
        let address: ClientAddress
        let loopLimit: Int
        let addressLoopLimit: Int

        fileprivate var loopAddress: LoopAddress { LoopAddress(eventLoop: eventLoop, address: address) }
    }

    fileprivate struct LoopAddress: Hashable {
        let eventLoop: ObjectIdentifier
        let address: ClientAddress
    }

    private struct Entry {
        let key: [UInt8]
        let deadline: ContinuousClock.Instant
        let seat: Seat?
        let wake: @Sendable (WakeReason) -> Void
    }

    /// Most requests parked at once.
    public let capacity: Int
    /// Most requests one client address may have parked at once; `Int.max` for no limit of its own.
    public let capacityPerAddress: Int

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var entries: [UInt64: Entry] = [:]
    /// Parked requests per client address, per event loop, and per client address on each loop.
    private var perAddress: [ClientAddress: Int] = [:]
    private var perLoop: [ObjectIdentifier: Int] = [:]
    private var perLoopAddress: [LoopAddress: Int] = [:]
    private var nextID: UInt64 = 0
    /// Wakes per stripe of keys; a ticket whose stripe moved on since it was taken missed one.
    private var generations = [UInt64](repeating: 0, count: 64)
    private var timerRunning = false
    private var stopping = false

    /// - Parameter capacityPerAddress: 0 for no limit of its own (the server's per-loop bound
    ///   still applies when its connections have a per-address limit).
    public init(capacity: Int, capacityPerAddress: Int = 0) {
        self.capacity = max(0, capacity)
        self.capacityPerAddress = capacityPerAddress > 0 ? capacityPerAddress : .max
    }

    /// Requests parked now from `address`.
    func count(from address: ClientAddress) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return perAddress[address] ?? 0
    }

    /// Requests parked now.
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.count
    }

    /// Whether `request` could park now: checked before any work for a request that would
    /// wait, so that one past the budget is refused at once, before reading anything. Parking
    /// checks again (`.full`), since others may take the seat meanwhile. A stopping room has a
    /// seat for everyone: parking then answers at once with what there is (`.answerNow`).
    public func hasSeat(for request: HTTPRequest) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping || hasRoom(for: request.services?.seat)
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

    /// Parks until `ticket`'s key is woken or `deadline` passes, counted against `seat` when
    /// given, holding no thread.
    func wait(_ ticket: Ticket, until deadline: ContinuousClock.Instant, seat: Seat? = nil) async -> WakeReason {
        await withCheckedContinuation { (continuation: CheckedContinuation<WakeReason, Never>) in
            park(ticket, until: deadline, seat: seat) { continuation.resume(returning: $0) }
        }
    }

    /// Parks a waiter, counted against `seat` when given; `wake` is called exactly once, from
    /// another thread or (when it cannot park, or missed a wake) right away.
    func park(
        _ ticket: Ticket, until deadline: ContinuousClock.Instant, seat: Seat? = nil, wake: @escaping @Sendable (WakeReason) -> Void
    ) {
        condition.lock()
        let immediate: WakeReason? =
            if stopping { .answerNow }
            else if generations[Self.stripe(ticket.key)] != ticket.generation { .notified }
            else if !hasRoom(for: seat) { .full }
            else { nil }
        if immediate == nil {
            nextID += 1
            entries[nextID] = Entry(key: ticket.key, deadline: deadline, seat: seat, wake: wake)
            if let seat { adjust(seat, by: 1) }
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

    /// Under `condition`.
    private func hasRoom(for seat: Seat?) -> Bool {
        guard entries.count < capacity else { return false }
        guard let seat else { return true }
        return (perAddress[seat.address] ?? 0) < capacityPerAddress
            && (perLoop[seat.eventLoop] ?? 0) < seat.loopLimit
            && (perLoopAddress[seat.loopAddress] ?? 0) < seat.addressLoopLimit
    }

    /// Under `condition`.
    private func adjust(_ seat: Seat, by change: Int) {
        Self.add(change, to: &perAddress, seat.address)
        Self.add(change, to: &perLoop, seat.eventLoop)
        Self.add(change, to: &perLoopAddress, seat.loopAddress)
    }

    /// Counts that fall to zero are removed, so the tables only hold addresses waiting now.
    private static func add<Key: Hashable>(_ change: Int, to counts: inout [Key: Int], _ key: Key) {
        let count = (counts[key] ?? 0) + change
        counts[key] = count > 0 ? count : nil
    }

    /// Under `condition`: takes the entry out and gives its seat back.
    private func remove(_ id: UInt64) {
        if let seat = entries.removeValue(forKey: id)?.seat { adjust(seat, by: -1) }
    }

    private func take(
        _ matching: (Entry) -> Bool, beforeTaking: () -> Void
    ) -> [@Sendable (WakeReason) -> Void] {
        condition.lock()
        defer { condition.unlock() }
        beforeTaking()
        var woken: [@Sendable (WakeReason) -> Void] = []
        for (id, entry) in entries where matching(entry) {
            remove(id)
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
                remove(id)
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
