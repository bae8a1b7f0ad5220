import HTTPServer
import Registry

/// The wait of a state change, a pin, an unpin or a delete after its commit, in one place: the
/// answer comes once every live replica's change follower has applied the change to its caches
/// (`replica_feed_positions`, `Propagation`), or when `REGISTRY_PROPAGATION_TIMEOUT_MS` has
/// passed, so that once the change is acknowledged no replica serves what it made stale.
///
/// The first read takes the database's position just after the commit as the target; each
/// later one compares every replica's row with it. Between reads the request is parked in the
/// waiting room like a long poll of `/api/changes` (no thread, no database session) for at most
/// `pollInterval`, woken sooner when this replica's own follower applies a read: at most
/// timeout / `pollInterval` short statements (250 with the default 5 s), and usually two or
/// three, since every follower reads the feed on the hint the change sends.
enum PropagationBarrier {
    static let pollInterval = Duration.milliseconds(20)
    /// Woken by `RegistryAPI.noteFeedRead`.
    static let wakeKey = "propagation"

    /// `{"replicas": N, "applied": M, "complete": bool}`. The change has committed whatever
    /// happens here: a failed read ends the wait with `complete: false` rather than an error.
    static func wait(_ call: Call) async -> JSONValue {
        let deadline = ContinuousClock.now + call.caches.propagationTimeout
        var target: String?
        var seen = Propagation(replicas: 0, applied: 0)
        while true {
            let ticket = call.waitingRoom.ticket(wakeKey)
            do {
                let positions = try await call.read { [target] in try await $0.replicaPositions(after: target) }
                target = positions.target
                seen = Propagation(positions.sightings)
            } catch {
                return object(seen, complete: false)
            }
            let now = ContinuousClock.now
            guard !seen.complete, now < deadline else { return object(seen, complete: seen.complete) }
            switch await call.wait(ticket, until: min(deadline, now + pollInterval)) {
            case .notified, .deadline: continue
            case .full, .answerNow: return object(seen, complete: false)
            }
        }
    }

    static func object(_ propagation: Propagation, complete: Bool) -> JSONValue {
        .object([
            "replicas": .number(String(propagation.replicas)), "applied": .number(String(propagation.applied)), "complete": .bool(complete),
        ])
    }
}
