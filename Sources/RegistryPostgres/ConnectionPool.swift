#if canImport(Glibc)
    import Glibc
#endif
import Registry
import Synchronization

/// A snapshot of the pool for metrics and readiness.
public struct PoolStats: Sendable, Equatable {
    /// Most sessions the pool may hold (`PostgresConfig.poolSize`).
    public let size: Int
    /// Sessions currently open, idle or lent.
    public let open: Int
    /// Open sessions ready to lend; with `inUse`, shows whether the pool is sized right.
    public let idle: Int
    /// Sessions lent to callers right now.
    public let inUse: Int
    /// Callers parked waiting for a session.
    public let waiting: Int
}

/// What the service can do with its database, as the latest attempts to reach it found.
public enum DatabaseMode: String, Sendable {
    /// A primary answers: reads and writes.
    case readWrite = "read-write"
    /// No primary answers but a standby does: reads are served, writes answer 503.
    case readOnly = "read-only"
    /// Nothing answers.
    case unreachable
}

/// When running an operation again is safe. A statement whose session broke may or may not have
/// been executed, so only reads may be repeated after a connection loss; deadlock and
/// serialization failures roll the whole transaction back, so any operation may be repeated.
public enum RetryPolicy: Sendable {
    /// Never repeat (the default).
    case never
    /// Repeat once after a lost session or a deadlock/serialization failure.
    case read
    /// Repeat once after a deadlock/serialization failure (`40P01`/`40001`) only: a safety net,
    /// the statements are designed not to need it.
    case write

    func allowsRetry(after error: PGError) -> Bool {
        let conflict = error.kind == .server && (error.sqlState?.isTransientConflict ?? false)
        switch self {
        case .never: return false
        case .write: return conflict
        // A timeout is not retried: the server may still be busy with the first attempt.
        case .read: return conflict || (error.isConnectionLoss && error.kind != .timeout)
        }
    }
}

/// A fixed-size set of sessions shared by the handler threads. Sessions are opened lazily and
/// replaced lazily: one that broke is dropped when it comes back and a new one is opened by the
/// next caller, so the pool heals after a database restart without being recreated.
///
/// Callers never wait unboundedly: a free session within `acquireTimeout`, or a new one within
/// libpq's `connect_timeout`, else `RegistryError.unavailable`.
public final class ConnectionPool: Sendable {
    /// Kept so callers (metrics, logs) can report the limits the pool runs with.
    public let config: PostgresConfig
    /// Where reads go while this pool cannot open a session (no primary reachable): a pool on
    /// standbys, which answer reads but refuse writes. Nil for a pool that has no fallback.
    public let standby: ConnectionPool?
    /// True for a pool on standbys, which runs reads' side-effect-free forms (`onStandby`).
    let isStandby: Bool
    /// While a primary answers, the reads that `StandbyReads`' rule lets the standby answer go
    /// there; nil when they all go to the primary (no standby, or a maximum lag of 0).
    public let standbyReads: StandbyReads?
    private let lock: ConditionLock<State>
    /// Whether the latest attempt to open a session, by anyone using this pool's database
    /// (the pool, an event loop, the change follower), failed. Set and cleared by attempts
    /// only, so a primary that comes back is found by the next write or follower attempt.
    private let connectFailing = Atomic<Bool>(false)

    /// A session is only touched by the single caller it is lent to, or under the pool's lock
    /// while idle.
    private struct State {
        var idle: [PGConnection] = []
        var open = 0
        var inUse = 0
        var closed = false
        var lastFailure: PGError?
    }

    private enum Grant {
        case idle(PGConnection)
        case connect
        case closed
    }

    /// Opens nothing yet: the first caller opens the first session, so a service can start (and
    /// report not-ready) while the database is down.
    /// - Parameter standbyReadsMaxLag: above zero, reads go to `standby` also while a primary
    ///   answers, when `StandbyReads`' rule allows, from a standby lagging at most this much.
    public init(config: PostgresConfig, standby: PostgresConfig? = nil, standbyReadsMaxLag: Duration = .zero) {
        self.config = config
        self.standby = standby.map { ConnectionPool(standbyConfig: $0) }
        self.isStandby = false
        self.standbyReads = standby != nil && standbyReadsMaxLag > .zero ? StandbyReads(maxLag: standbyReadsMaxLag) : nil
        self.lock = ConditionLock(State())
    }

    private init(standbyConfig: PostgresConfig) {
        self.config = standbyConfig
        self.standby = nil
        self.isStandby = true
        self.standbyReads = nil
        self.lock = ConditionLock(State())
    }

    /// Opens a session on this pool's database outside the pool (for an event loop or the
    /// change follower), noting whether it could, which decides the mode.
    func openSession() throws(PGError) -> PGConnection {
        do {
            let connection = try PGConnection.connect(config)
            if isStandby { try Self.awaitReplay(on: connection) }
            connectFailing.store(false, ordering: .releasing)
            return connection
        } catch {
            if error.kind == .connectionFailed { connectFailing.store(true, ordering: .releasing) }
            throw error
        }
    }

    /// A standby is used once no primary answers. Under synchronous replication it has received
    /// every acknowledged commit but may not have replayed the last ones yet: a read then would
    /// miss a version its publisher was told is there. Since no primary sends more, the standby
    /// catches up at once; a new session waits for that (at most `replayWait`) before serving.
    private static func awaitReplay(on connection: PGConnection) throws(PGError) {
        let clock = ContinuousClock()
        let deadline = clock.now + replayWait
        while clock.now < deadline {
            let caughtUp = try connection.execute(replayCaughtUp)
            if try caughtUp.rows.first?.bool(0) ?? true { return }
            usleep(5_000)
        }
    }

    static let replayWait = Duration.seconds(1)
    /// True once replay has reached the last WAL received (or when nothing streams).
    static let replayCaughtUp = PGStatement(file: "standby_replay_caught_up")

    /// What this process can do with its database now, as its latest attempts found.
    public var mode: DatabaseMode {
        guard connectFailing.load(ordering: .acquiring) else { return .readWrite }
        guard let standby, !standby.connectFailing.load(ordering: .acquiring) else { return .unreachable }
        return .readOnly
    }

    /// The pool a read should use now: the standby's while no primary could be reached.
    var readTarget: ConnectionPool {
        guard let standby, connectFailing.load(ordering: .acquiring) else { return self }
        return standby
    }

    /// Where a read that failed on this pool with `error` goes next: the standby when no primary
    /// is reachable, or when the read lost its session (twice, with its retry): a primary that
    /// just died has not been found unreachable by a connection attempt yet. Nil: `error` stands.
    func fallback(forReadFailing error: RegistryError) -> ConnectionPool? {
        guard error.code == .unavailable, let standby else { return nil }
        if connectFailing.load(ordering: .acquiring) { return standby }
        let lost = [PGError.Kind.connectionLost, .connectionFailed].contains { kind in
            error.cause?.kind.utf8.elementsEqual(kind.logName.utf8) ?? false
        }
        return lost ? standby : nil
    }

    /// The refusal for work that needs this pool's database, after `error` opening a session:
    /// "read-only" while a standby still answers reads, the plain 503 otherwise.
    func refusal(after error: PGError) -> RegistryError {
        guard error.kind == .connectionFailed, mode == .readOnly else { return error.registryError }
        return PGError.readOnly.caused(by: error.cause)
    }

    /// A consistent snapshot taken under the pool's lock, cheap enough for every scrape.
    public var stats: PoolStats {
        lock.withLock { state, waiters in
            PoolStats(
                size: config.poolSize, open: state.open, idle: state.idle.count, inUse: state.inUse,
                waiting: waiters)
        }
    }

    /// Why the last attempt to open a session failed, with libpq's detail, for the operator's log
    /// (clients only ever see "database unavailable"). Event loops' sessions count too.
    public var lastFailure: PGError? { lock.withLock { state, _ in state.lastFailure } }

    /// The event loops' sessions for this pool's database, summed over loops.
    public var loopStats: LoopSessionStats { loopFigures.snapshot }

    /// Counted by every loop's `LoopSessions`, read by `loopStats`.
    let loopFigures = LoopFigures()

    /// No session was free within `acquireTimeout`: the database is busy, not broken.
    static let noSessionInTime = RegistryError.unavailable("database busy: no connection free in time")

    /// Set by every commit through this pool that wrote the change feed; this process's
    /// `ChangeFollower` tells the other replicas.
    let changeHints = ChangeHints()

    /// Remembers why an event loop could not open a session, for `lastFailure`.
    func noteConnectFailure(_ error: PGError) {
        lock.withLock { state, _ in state.lastFailure = error }
    }

    /// Lends a session to `body` for its duration. Errors from `body` pass through unchanged;
    /// the pool's own failures (no session in time, database unreachable) are
    /// `RegistryError.unavailable`. With a retry policy the whole `body` may run twice, on a
    /// different session, so it must not keep state from the first run.
    public func withConnection<T>(retry: RetryPolicy = .never, _ body: (PGConnection) throws -> T) throws -> T {
        var attempt = 1
        while true {
            let connection = try checkout()
            do {
                let value = try body(connection)
                checkin(connection)
                return value
            } catch let error as PGError {
                checkin(connection, after: error)
                if attempt == 1 && retry.allowsRetry(after: error) {
                    attempt += 1
                    continue
                }
                throw error
            } catch {
                checkin(connection)
                throw error
            }
        }
    }

    /// Closes idle sessions and refuses new work; sessions still lent are closed on return.
    public func close() {
        lock.withLock { state, _ in state.closed = true }
        discardIdle()
        lock.broadcast()
    }

    // MARK: - Internals

    /// A session lent until `checkin`: an idle one, or a new one while fewer than `poolSize`
    /// are open, waiting at most `acquireTimeout`.
    func checkout() throws -> PGConnection {
        let deadline = ContinuousClock.now + config.acquireTimeout
        while true {
            let grant = lock.wait(until: deadline) { state -> Grant? in
                if state.closed { return .closed }
                if let connection = state.idle.popLast() {
                    state.inUse += 1
                    return .idle(connection)
                }
                if state.open < config.poolSize {
                    state.open += 1
                    state.inUse += 1
                    return .connect
                }
                return nil
            }
            switch grant {
            case nil:
                throw Self.noSessionInTime.caused(by: .init(kind: "acquire_timeout"))
            case .closed?:
                throw RegistryError.unavailable("database unavailable")
            case .idle(let connection)?:
                if connection.checkAlive() { return connection }
                checkin(connection)
                discardIdle()
            case .connect?:
                do {
                    return try openSession()
                } catch {
                    lock.withLock { state, _ in
                        state.open -= 1
                        state.inUse -= 1
                        state.lastFailure = error
                    }
                    lock.signal()
                    throw refusal(after: error)
                }
            }
        }
    }

    /// Takes a session back after `error`. A lost session usually means a restart or a
    /// failover: the idle ones are dead or on the wrong server too, and are closed with it.
    func checkin(_ connection: PGConnection, after error: any Error) {
        checkin(connection)
        if let error = error as? PGError, error.sqlState?.condemnsSession == true || error.isConnectionLoss { discardIdle() }
    }

    /// Takes a session back; keeps it only if it is healthy and outside any transaction. A
    /// dropped session is finished when the caller's last reference goes, outside the lock.
    func checkin(_ connection: PGConnection) {
        let keep = connection.isUsable && connection.isIdle
        lock.withLock { state, _ in
            state.inUse -= 1
            if keep && !state.closed {
                state.idle.append(connection)
            } else {
                state.open -= 1
            }
        }
        lock.signal()
    }

    private func discardIdle() {
        let dropped = lock.withLock { state, _ -> [PGConnection] in
            let idle = state.idle
            state.idle = []
            state.open -= idle.count
            return idle
        }
        if !dropped.isEmpty { lock.broadcast() }
    }
}
