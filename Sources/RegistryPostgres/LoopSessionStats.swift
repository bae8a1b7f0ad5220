import Synchronization

/// A snapshot of the event loops' sessions for metrics: whether reads pile up waiting for a
/// session and how deep the pipelines run.
public struct LoopSessionStats: Sendable, Equatable {
    /// Sessions open on all loops.
    public let open: Int
    /// Reads sent and not yet answered.
    public let inFlight: Int
    /// Reads waiting for a session (one opening, or all at their in-flight limit).
    public let waiting: Int
}

/// The running totals behind `LoopSessionStats`: each loop adds its changes, so a scrape reads
/// three atomics instead of visiting the loops.
final class LoopFigures: Sendable {
    private let open = Atomic<Int>(0)
    private let inFlight = Atomic<Int>(0)
    private let waiting = Atomic<Int>(0)

    var snapshot: LoopSessionStats {
        LoopSessionStats(
            open: open.load(ordering: .relaxed), inFlight: inFlight.load(ordering: .relaxed),
            waiting: waiting.load(ordering: .relaxed))
    }

    /// Adds the difference between a loop's figures now and what it last reported.
    func move(from old: LoopSessionStats, to new: LoopSessionStats) {
        if new.open != old.open { open.add(new.open - old.open, ordering: .relaxed) }
        if new.inFlight != old.inFlight { inFlight.add(new.inFlight - old.inFlight, ordering: .relaxed) }
        if new.waiting != old.waiting { waiting.add(new.waiting - old.waiting, ordering: .relaxed) }
    }
}
