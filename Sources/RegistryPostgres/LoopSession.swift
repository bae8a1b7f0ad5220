/// One pipelined session of a loop: the connection and the reads sent on it, in the order their
/// answers will come.
final class LoopSession {
    /// In pipeline mode; used only on the loop's thread.
    let connection: PGConnection
    /// Kept so the loop can stop watching it after libpq has let it go.
    let descriptor: Int32
    /// Sent and unanswered, oldest first: the order `receivePipelined` returns outcomes in.
    var reads = FIFO<LoopStatement>()
    /// Whether the loop also waits for the socket to be writable (libpq holds unsent output).
    var waitsToWrite = false
    /// On a standby: the replay position last probed on this session, and when it was sent.
    /// Replay only moves forward, so it bounds from below what any later read here sees.
    var position: ReplayPosition?
    var probedAt: ContinuousClock.Instant?
    /// A probe is sent and unanswered: reads sent after it are checked against its answer.
    var probeInFlight = false
    /// Set when a probe found a primary on a session older than `LoopSessions.primaryKeptFor`:
    /// the standbys' pool took it while no standby answered; it takes no more reads and is
    /// closed once answered, so the next session may find a standby again.
    var retiring = false
    let openedAt = ContinuousClock.now
    /// Opened for transactions: it takes no shared reads and serves one transaction at a time.
    let forTransactions: Bool
    /// Lent to a transaction now (`LoopSessions.lease`).
    var isLeased = false

    init(_ connection: PGConnection, forTransactions: Bool = false) {
        self.connection = connection
        self.forTransactions = forTransactions
        self.descriptor = connection.socketDescriptor
    }

    /// When its oldest read stops waiting for an answer: later reads were sent after it.
    var deadline: ContinuousClock.Instant? { reads.first?.deadline }

    /// Why `check` refuses what this session's probe found; nil when it passes.
    func refusal(for check: StandbyCheck) -> StandbySkip.Reason? {
        guard let position else { return .behind }
        return check.refusal(of: position)
    }

    /// The last probed position, while it may stand for a new probe for `check`: one that
    /// passes for `StandbyReads.probeInterval`, one that refuses only for
    /// `StandbyReads.refusedProbeInterval` (a standby a few milliseconds behind catches up).
    func reusablePosition(for check: StandbyCheck) -> ReplayPosition? {
        guard let probedAt, let position else { return nil }
        let interval = check.refusal(of: position) == nil ? StandbyReads.probeInterval : StandbyReads.refusedProbeInterval
        return ContinuousClock.now < probedAt + interval ? position : nil
    }
}
