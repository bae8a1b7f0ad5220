import Synchronization

/// Reads that may be answered by a standby while a primary answers (`StoreStatement.standbyRead`:
/// a version by number, the candidates for `latest`, lists of versions, the type index,
/// search), and the rule that keeps them correct. What a lagging standby gets wrong is absence
/// and state: a version just published missing, a deleted or disabled one present, a state,
/// pin or metadata change not yet visible. So:
///
/// 1. A standby answer for an application is used only when the standby's replay position is
///    at least `required` for that application (`RequiredPositions`): the primary's WAL
///    insert position at this replica's latest read of the change feed that reported a change
///    to it, or that restarted the caches (`FeedPosition.insertLSN`). That is at or past the
///    commit of every change to the application this replica has seen, hence of every
///    invalidation its caches have applied for it; changes to other applications do not raise
///    it. Before the change follower's first read there is none, and the primary answers.
/// 2. A client reads its own write: after a change committed through this process
///    (`ChangeHints.committedCount`), the primary answers until the follower has read the feed
///    in a statement that started after that commit (within milliseconds: the change's own
///    hint wakes the follower), so `required` covers it. This is kept per process, whatever
///    application the write changed: the window is that short, and a count per process needs
///    nothing from the write path.
/// 3. A standby lagging more than `maxLag` is skipped (replay behind what it received, for
///    longer than that since the last transaction it replayed).
/// 4. A standby's empty answer (no version, no `latest`, an empty page) is never the answer:
///    the primary is asked again (`StandbyRead.confirms`). A replica may not have seen a change
///    committed through another replica yet; the standby it reads may miss that version, which
///    the primary then supplies.
///
/// So an answer is exactly as fresh as what this replica already knows of the application: a
/// list shows every version it has seen published, none it has seen deleted or disabled, every
/// state and metadata change it has seen. A non-empty page may miss a change committed through
/// another replica that this one has not read yet, as a cache of this replica would.
///
/// The standby's position is probed on the session that serves the read, pipelined before it
/// (`LoopSessions`), and kept for `probeInterval` (`refusedProbeInterval` when it refused a
/// read, since a standby milliseconds behind soon catches up): replay only moves forward on one server, so
/// a position probed earlier on that session is a lower bound of what the read sees. Probing
/// per session rather than per pool keeps the rule when the read URL balances sessions over
/// several standbys. Read-only mode (no primary) is not this: every read goes to the standby.
public final class StandbyReads: Sendable {
    /// 0 disables standby reads while a primary answers.
    public let maxLag: Duration
    /// How long one session's probe of its replay position is reused: when it passed, and when
    /// it refused a read.
    static let probeInterval = Duration.milliseconds(100)
    static let refusedProbeInterval = Duration.milliseconds(10)
    /// `required` per application, raised by the change follower only.
    private let positions: Mutex<RequiredPositions>
    /// How many of this process's commits the follower's latest read started after.
    private let coveredCommits = Atomic<UInt64>(0)
    private let counters = Mutex(StandbyReadFigures())
    /// After a standby failed a read (unreachable, timed out), the primary answers until then:
    /// reads must not each wait for a standby that is down.
    private let failedUntil = Mutex<ContinuousClock.Instant?>(nil)
    static let retryAfterFailure = Duration.seconds(2)

    public init(maxLag: Duration) {
        self.maxLag = maxLag
        self.positions = Mutex(RequiredPositions())
    }

    /// The follower read the feed on the primary, in a statement that started after `commits`
    /// of this process's commits; `insertLSN` is the primary's position at that read, which
    /// `changed` raises the requirement to: for the applications it reported changes to, or
    /// for every application when it restarted the caches. A read that found nothing raises
    /// nothing: the changes seen are then those of earlier reads, and a standby need not follow
    /// unrelated WAL. Called before the read's changes reach the caches: a cache filled after
    /// an invalidation then holds an answer at least that recent.
    func noteFeedRead(insertLSN: UInt64, changed: FeedReadChanges, covering commits: UInt64) {
        switch changed {
        case .nothing: break
        case .applications(let applications): positions.withLock { $0.raise(applications, to: insertLSN) }
        case .restart: positions.withLock { $0.raiseAll(to: insertLSN) }
        }
        // After the positions: a read that finds its own writes covered finds them required.
        var current = coveredCommits.load(ordering: .sequentiallyConsistent)
        while current < commits {
            let (exchanged, original) = coveredCommits.compareExchange(
                expected: current, desired: commits, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = original
        }
    }

    /// What one feed read reported, for `noteFeedRead`.
    enum FeedReadChanges: Equatable {
        case nothing
        case applications(Set<Int64>)
        /// The caches were told to forget everything (first read, reconnection, overflow).
        case restart
    }

    /// Where a read of `application` may go now, given how many commits this process has noted.
    /// Own writes are followed for the process as a whole (see the README's "Reads from
    /// standbys"): the window lasts until the follower's next read, milliseconds.
    func requirement(committed: UInt64, application: Int64) -> Requirement {
        if coveredCommits.load(ordering: .sequentiallyConsistent) < committed { return .primary(.ownWrite) }
        if let until = failedUntil.withLock({ $0 }), ContinuousClock.now < until { return .primary(.failed) }
        let required = positions.withLock { $0.required(for: application) }
        return required == 0 ? .primary(.unknown) : .standby(StandbyCheck(required: required, maxLag: maxLag))
    }

    /// How many applications have a required position of their own (at most the capacity).
    var applicationsTracked: Int { positions.withLock { $0.count } }

    enum Requirement: Equatable {
        case standby(StandbyCheck)
        case primary(StandbySkip.Reason)
    }

    /// A read answered by the standby.
    func noteServedByStandby() {
        counters.withLock { $0.servedByStandby += 1 }
    }

    /// A read the primary answered, and why the standby did not.
    func noteServedByPrimary(skipping reason: StandbySkip.Reason) {
        counters.withLock { figures in
            figures.servedByPrimary += 1
            figures.skipped[reason, default: 0] += 1
        }
    }

    /// The standby failed a read: the primary answers the next `retryAfterFailure`.
    func noteStandbyFailed() {
        failedUntil.withLock { $0 = .now + Self.retryAfterFailure }
    }

    /// The standby's answer, if it may be served; otherwise nil, and the primary must answer.
    /// `confirms` names the values the primary must confirm (absence); a `StandbySkip` says why
    /// the standby was refused, any other failure keeps it out for `retryAfterFailure`.
    func served<Value>(_ result: Result<Value, any Error>, confirms: (Value) -> Bool) -> Value? {
        let reason: StandbySkip.Reason
        switch result {
        case .success(let value) where !confirms(value):
            noteServedByStandby()
            return value
        case .success: reason = .absent
        case .failure(let skip as StandbySkip): reason = skip.reason
        case .failure:
            noteStandbyFailed()
            reason = .failed
        }
        noteServedByPrimary(skipping: reason)
        return nil
    }

    /// Counts since start, for metrics.
    public var figures: StandbyReadFigures { counters.withLock { $0 } }
}

/// What the standby of a read must show before its answer is used.
struct StandbyCheck: Sendable, Equatable {
    let required: UInt64
    let maxLag: Duration

    /// Nil when `position` passes; otherwise why the standby is skipped.
    func refusal(of position: ReplayPosition) -> StandbySkip.Reason? {
        guard position.inRecovery, let replayed = position.replayLSN else { return .behind }
        if position.lag > maxLag { return .lag }
        return replayed >= required ? nil : .behind
    }
}

/// One probe of a session's server (`standby_replay_position`).
struct ReplayPosition: Sendable, Equatable {
    /// False on a primary, which the read pool may reach when no standby answers: the
    /// writers' pool answers then.
    let inRecovery: Bool
    /// Bytes from `0/0` of the last WAL record replayed.
    let replayLSN: UInt64?
    /// Zero while replay keeps up with what was received.
    let lag: Duration

    static let probe = PGStatement(file: "standby_replay_position")
}

extension ReplayPosition {
    init(_ result: PGResult) throws(PGError) {
        guard let row = result.rows.first else { throw PGError(kind: .unexpectedResult, debugDetail: "no row") }
        self.init(
            inRecovery: try row.bool(0), replayLSN: try PostgresSchemaStore.lsn(row, 1),
            lag: .milliseconds(try row.int64(2)))
    }
}

/// A standby answer refused by the rule: the read is sent to the primary.
struct StandbySkip: Error, Sendable, Equatable {
    enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Replay is behind the change feed this replica has seen, or the server is no standby.
        case behind
        /// Replay is more than `REGISTRY_READ_MAX_LAG_MS` behind what the standby received.
        case lag
        /// A change committed through this process is not covered by the follower yet.
        case ownWrite = "own_write"
        /// The follower has not read the feed yet.
        case unknown
        /// The standby found nothing: absence is confirmed on the primary.
        case absent
        /// The standby could not answer (unreachable, timed out), now or within
        /// `retryAfterFailure` before.
        case failed
    }

    let reason: Reason
}

/// Standby reads since start.
public struct StandbyReadFigures: Sendable, Equatable {
    public var servedByStandby = 0
    public var servedByPrimary = 0
    /// Why the primary answered, by `StandbySkip.Reason` raw value.
    var skipped: [StandbySkip.Reason: Int] = [:]

    /// Each reason's count, zeros included, by its metric label.
    public var skippedByReason: [(reason: String, count: Int)] {
        StandbySkip.Reason.allCases.map { ($0.rawValue, skipped[$0] ?? 0) }
    }
}
