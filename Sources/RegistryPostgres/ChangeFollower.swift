import Foundation
import Registry
import Synchronization

/// Keeps one replica's caches and waiting readers in step with changes committed anywhere, by
/// following the change feed of every application on one dedicated session, on a thread of
/// its own. It reads the feed
/// - on a hint (`NOTIFY registry_changes, 'feed'`), which the replica that made a change sends
///   after its commit: this follower sends its own process's (`ChangeHints`) on the same
///   session, at most one per `hintSpacing` for all the changes committed meanwhile;
/// - every `fallbackInterval` without one, for changes that send no hint (psql, an import, a
///   replica that stopped between its commit and its hint) and for sessions where `LISTEN` is
///   refused (a hot standby).
///
/// While no primary answers it follows the standby pool's copy of the feed (when there is one),
/// where `LISTEN` is refused: token changes, which come only as notifications, are then
/// assumed on every read of the feed. It tries the primary again every `primaryRetryInterval`.
///
/// Each read reports to `onChanges` the changes committed since the previous read, each once,
/// in whatever order their transactions commit (`FeedPosition`), so caches never wait for an
/// unrelated older transaction. The token notifications of migrations 0003 and 0005 go to
/// `onTokenChange`. A payload it does not know, more than `pageSize` changes since the last
/// read, and every (re)connection go to `onRestart`, which must forget everything cached: what
/// changed is not known, or too much to read.
///
/// Each read on the primary that reports changes also gives `StandbyReads` the primary's WAL
/// insert position at that read and the applications it changed, before its changes reach the
/// caches: standbys answer reads of those applications only once past it.
///
/// After each read it has applied, and at least every `heartbeatInterval`, it writes where it
/// is to `replica_feed_positions` (on the primary), which changes wait on before they answer
/// (the propagation barrier), and tells `onRead` when a replica whose follower has not read
/// for longer than the bound it gives must stop serving from its caches (the fence).
public final class ChangeFollower: Sendable {
    /// How long a change made without a hint may take to reach this replica.
    public static let fallbackInterval = Duration.seconds(1)
    /// Hints are coalesced to at most one per this long per replica: each makes every
    /// replica read the feed.
    static let hintSpacing = Duration.milliseconds(5)
    static let pageSize = 1000
    /// How often a follower reading a standby's feed tries the primary again.
    static let primaryRetryInterval = Duration.seconds(2)
    static let channel = "registry_changes"
    /// The longest a live follower goes without writing its row (`Propagation.liveWithinMilliseconds`
    /// allows five of these).
    static let heartbeatInterval = Duration.seconds(1)
    /// How much later than its timer a read may be before the replica fences its caches.
    public static let fenceMargin = Duration.seconds(2)

    private let pool: ConnectionPool
    private let fallbackInterval: Duration
    private let onChanges: @Sendable ([CommittedChange]) -> Void
    private let onTokenChange: @Sendable () -> Void
    private let onRestart: @Sendable () -> Void
    private let onRead: @Sendable (Duration) -> Void
    public let replica: ReplicaIdentity
    private let stopped = Atomic<Bool>(false)

    /// - Parameter fallbackInterval: the default in production; tests lengthen it to show
    ///   what hints alone do.
    /// - Parameter onRead: called after each read of the feed whose changes reached the caches,
    ///   with how long the replica may serve from its caches without another one
    ///   (`fallbackInterval + fenceMargin`).
    public init(
        pool: ConnectionPool, fallbackInterval: Duration = ChangeFollower.fallbackInterval,
        replica: ReplicaIdentity = ChangeFollower.newIdentity(),
        onChanges: @escaping @Sendable ([CommittedChange]) -> Void,
        onTokenChange: @escaping @Sendable () -> Void,
        onRestart: @escaping @Sendable () -> Void,
        onRead: @escaping @Sendable (Duration) -> Void = { _ in }
    ) {
        self.pool = pool
        self.fallbackInterval = fallbackInterval
        self.replica = replica
        self.onChanges = onChanges
        self.onTokenChange = onTokenChange
        self.onRestart = onRestart
        self.onRead = onRead
    }

    /// This process on this host, and a random part: a restarted process is a new replica.
    public static func newIdentity() -> ReplicaIdentity {
        let info = ProcessInfo.processInfo
        let host = String(decoding: info.hostName.utf8.prefix(200), as: UTF8.self)
        return ReplicaIdentity(id: "\(host)/\(info.processIdentifier)/\(UUID().uuidString.prefix(8))", host: host)
    }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "registry-changes"
        thread.start()
    }

    /// Asks the thread to end (it notices within one wait) and removes this replica's row, so
    /// that changes stop waiting for it at once rather than after its heartbeat ages.
    public func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        do {
            // A replica stopping is waited for no more.
            try pool.run(StoreStatement(statement: PostgresSchemaStore.positionDelete, parameters: [replica.id], retry: .write) { _ in })
        } catch {
            // No database: the row ages out of the live window (`Propagation`) by itself.
        }
    }

    private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    private func run() {
        var next: PGConnection?
        while !isStopped {
            do {
                let connection = try next ?? pool.openSession()
                next = nil
                try follow(on: connection, onPrimary: true)
            } catch {
                next = nil
                // No primary: follow a standby's copy of the feed meanwhile, so caches keep
                // up with what it replays, until a primary answers again.
                if let standby = pool.standby {
                    do {
                        next = try follow(on: standby.openSession(), onPrimary: false)
                        continue
                    } catch {
                        // The standby is gone too: wait below, then try the primary first.
                    }
                }
                // Unreachable database: try again shortly; readiness reports the outage.
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    /// Follows the feed on `connection` until it fails or, on a standby, until a primary
    /// answers again; returns the primary's session to follow next.
    @discardableResult
    private func follow(on connection: PGConnection, onPrimary: Bool) throws -> PGConnection? {
        // A hint needs no durability: its commit need not wait for a WAL flush.
        if onPrimary { try connection.simpleQuery("SET synchronous_commit = off") }
        let listening = try Self.listen(on: connection)
        let hints = pool.changeHints
        let commits = hints.committedCount
        var position = try PostgresSchemaStore.followStart().run(on: connection)
        noteRead(position, covering: commits, changed: .restart)
        onRestart()
        let clock = ContinuousClock()
        var nextHeartbeat = clock.now
        try applied(position, reportedChanges: true, on: connection, onPrimary: onPrimary, nextHeartbeat: &nextHeartbeat, clock: clock)
        var nextRead = clock.now + fallbackInterval
        var nextPrimaryTry = clock.now + Self.primaryRetryInterval
        var lastHint = clock.now - Self.hintSpacing
        var readNow = false
        while !isStopped {
            if hints.isOwed, clock.now >= lastHint + Self.hintSpacing, hints.take() {
                lastHint = clock.now
                // A standby cannot NOTIFY; the other replicas' timers find the change.
                if onPrimary { try connection.execute(PostgresSchemaStore.hint) }
            }
            if readNow || clock.now >= nextRead {
                readNow = false
                let reported = try catchUp(from: &position, on: connection)
                try applied(position, reportedChanges: reported, on: connection, onPrimary: onPrimary, nextHeartbeat: &nextHeartbeat, clock: clock)
                // Token changes arrive only as notifications: without them, every read of the
                // feed forgets the tokens, so a revocation takes effect within one interval.
                if !listening { onTokenChange() }
                nextRead = clock.now + fallbackInterval
            }
            if !onPrimary, clock.now >= nextPrimaryTry {
                nextPrimaryTry = clock.now + Self.primaryRetryInterval
                do {
                    return try pool.openSession()
                } catch {
                    // Still no primary (the pool notes why): keep following the standby.
                }
            }
            if onPrimary, clock.now >= nextHeartbeat {
                try writePosition(position, on: connection)
                nextHeartbeat = clock.now + Self.heartbeatInterval
            }
            let nextTimer = onPrimary ? min(nextRead, nextHeartbeat) : nextRead
            let wakeAt = hints.isOwed ? min(nextTimer, lastHint + Self.hintSpacing) : nextTimer
            let payloads = try connection.notifications(
                waitingUpTo: Self.milliseconds(until: wakeAt, clock: clock), orUntilReadable: hints.descriptor)
            hints.drain()
            for payload in payloads {
                switch Notice(payload) {
                case .feed: readNow = true
                case .token: onTokenChange()
                case .unknown: onRestart()
                }
            }
        }
        return nil
    }

    /// `LISTEN`s on the channel; false when refused with the session still usable (a hot
    /// standby), which is not an error: the timer alone reads the feed there.
    private static func listen(on connection: PGConnection) throws(PGError) -> Bool {
        do {
            try connection.simpleQuery("LISTEN \(channel)")
            return true
        } catch {
            if !connection.isUsable { throw error }
            return false
        }
    }

    /// The caches hold every change `position` sees: the row says so (a standby cannot write
    /// it, so a replica following one is not waited for), and the fence moves on. A read that
    /// reported nothing moves no change's wait (a wait looks only at feed events, and none
    /// committed since the position written last), so only the heartbeat writes after it:
    /// the row costs one small write per read that found changes, and one a second.
    private func applied(
        _ position: FeedPosition, reportedChanges: Bool, on connection: PGConnection, onPrimary: Bool,
        nextHeartbeat: inout ContinuousClock.Instant, clock: ContinuousClock
    ) throws {
        if onPrimary, reportedChanges || clock.now >= nextHeartbeat {
            try writePosition(position, on: connection)
            nextHeartbeat = clock.now + Self.heartbeatInterval
        }
        onRead(fallbackInterval + Self.fenceMargin)
    }

    /// One upsert on the follower's session (`synchronous_commit = off`, a HOT update). A
    /// refusal that leaves the session usable (a database behind migration 0020 during a
    /// rolling deploy) only leaves the replica unwaited for: the caches still follow.
    private func writePosition(_ position: FeedPosition, on connection: PGConnection) throws {
        do {
            let parameters: [(any PGParameter)?] = [replica.id, replica.host, position.snapshot]
            try StoreStatement(statement: PostgresSchemaStore.positionUpsert, parameters: parameters, retry: .write) { _ in }.run(on: connection)
        } catch {
            if !connection.isUsable { throw error }
        }
    }

    /// Reports the changes committed since `position` and moves it to now; true when it
    /// reported changes (or a restart).
    @discardableResult
    private func catchUp(from position: inout FeedPosition, on connection: PGConnection) throws -> Bool {
        let commits = pool.changeHints.committedCount
        let page = try PostgresSchemaStore.followRead(after: position, limit: Self.pageSize).run(on: connection)
        position = page.position
        let changed: StandbyReads.FeedReadChanges =
            page.overflowed ? .restart : page.changes.isEmpty ? .nothing : .applications(Set(page.changes.map(\.applicationID)))
        noteRead(position, covering: commits, changed: changed)
        if page.overflowed {
            onRestart()
        } else if !page.changes.isEmpty {
            onChanges(page.changes)
        }
        return page.overflowed || !page.changes.isEmpty
    }

    /// Tells the standby reads how far the primary was at a read, and which applications it
    /// reported changes to (a restart counts for all: the caches were flushed), before they
    /// reach the caches (`StandbyReads.noteFeedRead`); a read of a standby's feed has no position.
    private func noteRead(_ position: FeedPosition, covering commits: UInt64, changed: StandbyReads.FeedReadChanges) {
        guard let lsn = position.insertLSN else { return }
        pool.standbyReads?.noteFeedRead(insertLSN: lsn, changed: changed, covering: commits)
    }

    /// A poll timeout: 0 when the instant is past, and at most a second, so `stop` is noticed.
    private static func milliseconds(until instant: ContinuousClock.Instant, clock: ContinuousClock) -> Int32 {
        let left = clock.now.duration(to: instant)
        guard left > .zero else { return 0 }
        return Int32(min(1000, max(1, left.wholeMilliseconds)))
    }

    /// What a payload on the channel asks for.
    enum Notice: Equatable {
        /// A change-feed hint (`PostgresSchemaStore.hint`).
        case feed
        /// A token was revoked or its scope, applications or expiry changed (`token_revoked|<id>`).
        case token
        case unknown

        init(_ payload: String) {
            if payload.utf8.elementsEqual("feed".utf8) {
                self = .feed
            } else if payload.utf8.starts(with: "token_revoked|".utf8) {
                self = .token
            } else {
                self = .unknown
            }
        }
    }
}
