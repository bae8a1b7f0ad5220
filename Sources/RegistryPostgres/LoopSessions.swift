import EventLoop
import Foundation
import Registry

/// The sessions one event loop uses for one pool's database. Statements started on the loop
/// (reads, and writes that are one statement each) are pipelined on them, each followed by its
/// own sync so it runs as its own implicit transaction, and answered from the loop's readiness
/// handlers, so no thread waits for PostgreSQL. "Reads" below means any such statement. A
/// session is opened on a background thread (opening one blocks) and handed to the loop; reads
/// wait in a bounded queue meanwhile.
///
/// Reads behave as on the blocking pool: one waits at most `acquireTimeout` for a session and
/// `responseTimeout` for its answer (then the session is dropped and its reads fail); one whose
/// session was lost is sent once more on a fresh session, unless it is a write, which may have
/// committed; a session that becomes readable while idle is being closed by the server and is
/// dropped. Every answer runs on the loop's thread.
///
/// A transaction leases a session of its own (`lease`): sessions opened for transactions never
/// take shared reads, and each serves one transaction at a time, from BEGIN to COMMIT, so the
/// transaction's task waits for its statements holding the session and no thread. At most
/// `loopTransactions` are open; a lease waits at most `acquireTimeout` for one.
///
/// `@unchecked Sendable`: everything runs on the loop's thread (tasks, readiness handlers,
/// ticks, `close`); other threads reach it only through `loop.execute`.
final class LoopSessions: LoopAttachment, LoopTicker, @unchecked Sendable {
    static let shuttingDown = RegistryError.unavailable("the server is shutting down; retry the request")
    static let tooManyTransactionsWaiting = RegistryError.unavailable("database busy: too many transactions waiting")

    private unowned let loop: EventLoop
    private let pool: ConnectionPool
    private var sessions: [LoopSession] = []
    private var connecting = 0
    private var connectingForTransactions = 0
    private var waiting = FIFO<LoopStatement>()
    private var leases = FIFO<LeaseRequest>()
    private var serveScheduled = false
    private var closed = false
    private var reported = LoopSessionStats(open: 0, inFlight: 0, waiting: 0)

    private var config: PostgresConfig { pool.config }

    /// How long a standbys' session that reached a primary is kept before it is replaced.
    static let primaryKeptFor = Duration.seconds(5)

    /// The loop's sessions for `pool`, made on first use; call on the loop's thread.
    static func on(_ loop: EventLoop, for pool: ConnectionPool) -> LoopSessions {
        loop.attachment(ObjectIdentifier(pool)) { LoopSessions(loop: loop, pool: pool) }
    }

    private init(loop: EventLoop, pool: ConnectionPool) {
        self.loop = loop
        self.pool = pool
        // Made while the loop stops (attachments closed, task queue closed): nothing could
        // answer a read later, so reads are refused from the start.
        closed = !loop.execute {}
        if !closed { loop.add(self) }
    }

    /// Takes a read started on the loop's thread; it is answered later, on that thread.
    func start(_ read: LoopStatement) {
        guard !closed else { return answerLater(read, Self.shuttingDown) }
        guard waiting.count < config.loopReadsWaiting else {
            return answerLater(read, .unavailable("database busy: too many reads waiting"))
        }
        var read = read
        read.deadline = .now + config.acquireTimeout
        waiting.append(read)
        publish()
        // Sent from a task, so that reads started in one turn go out together and no answer
        // (a broken session's) reaches a caller before its start call has returned.
        guard !serveScheduled else { return }
        serveScheduled = true
        // A loop that takes no more tasks is stopping: answer now, as its close would.
        let scheduled = loop.execute {
            self.serveScheduled = false
            self.serve()
        }
        if !scheduled { close() }
    }

    /// Answers everything still held with "shutting down" and closes the sessions; the loop
    /// calls it when it stops.
    func close() {
        guard !closed else { return }
        closed = true
        let open = sessions
        sessions = []
        for session in open {
            loop.unwatch(session.descriptor)
            for read in session.reads.removeAll() { read.answer(.failure(Self.shuttingDown)) }
        }
        for read in waiting.removeAll() { read.answer(.failure(Self.shuttingDown)) }
        for request in leases.removeAll() { request.grant(.failure(Self.shuttingDown)) }
        publish()
    }

    // MARK: - Leases

    /// Lends a transaction session for one transaction; `grant` gets it on the loop's thread,
    /// or the refusal: shutting down, too many waiting already (`loopReadsWaiting`, as for
    /// reads), busy past `acquireTimeout`, or the database unreachable.
    func lease(then grant: @escaping @Sendable (Result<LeasedSession, any Error>) -> Void) {
        let request = LeaseRequest(deadline: .now + config.acquireTimeout, grant: grant)
        guard !closed else { return request.grant(.failure(Self.shuttingDown)) }
        guard leases.count < config.loopReadsWaiting else { return request.grant(.failure(Self.tooManyTransactionsWaiting)) }
        leases.append(request)
        serve()
    }

    /// Sends a batch of statements of the transaction holding `session`, in order; a session
    /// dropped meanwhile (lost, timed out, closing) fails them as lost, so the transaction ends.
    func send(_ statements: [LoopStatement], on lease: LeasedSession) {
        guard EventLoop.current === loop else {
            if !loop.execute({ self.send(statements, on: lease) }) {
                for statement in statements { statement.answer(.failure(Self.shuttingDown)) }
            }
            return
        }
        // A batch goes out whole or not at all. A statement refused before sending (a NUL in its
        // text) would leave those sent before it without their sync, and let a COMMIT after it
        // commit the transaction without it.
        if statements.count > 1 {
            for statement in statements {
                do {
                    _ = try PGConnection.texts(of: statement.parameters, for: statement.statement)
                } catch {
                    for refused in statements { refused.answer(.failure(error)) }
                    return
                }
            }
        }
        let session = lease.session
        for statement in statements {
            guard !closed, sessions.contains(where: { $0 === session }) else {
                let lost = PGError(kind: .connectionLost, statement: statement.statement.name, debugDetail: "the transaction's session was closed")
                statement.answer(.failure(lost))
                continue
            }
            send(statement, on: session)
        }
    }

    /// Takes a leased session back: kept for the next transaction when it is outside any
    /// transaction and owes nothing, else closed.
    func release(_ lease: LeasedSession) {
        guard EventLoop.current === loop else {
            loop.execute { self.release(lease) }
            return
        }
        let session = lease.session
        session.isLeased = false
        let clean = session.reads.isEmpty && session.connection.isUsable && session.connection.isIdle
        if !clean && sessions.contains(where: { $0 === session }) { remove(session) }
        serve()
    }

    // MARK: - Deadlines

    /// The earliest of the oldest waiting read's and each session's oldest read's deadlines:
    /// reads are queued and sent in order with one timeout each, so those come first.
    var nextDeadline: ContinuousClock.Instant? {
        var earliest = waiting.first?.deadline
        if let deadline = leases.first?.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        for session in sessions {
            if let deadline = session.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    /// A session owing an answer past `responseTimeout` is dropped and its reads fail with the
    /// timeout (not retried: the server may still be busy with them); a read still waiting for
    /// a session past `acquireTimeout` fails as "busy".
    func tick() {
        let now = ContinuousClock.now
        for session in sessions where session.deadline.map({ $0 <= now }) == true {
            let statement = session.reads.first?.statement.name
            drop(session, failing: PGError(kind: .timeout, statement: statement, debugDetail: "no answer within the response timeout"))
        }
        while let read = waiting.first, read.deadline <= now {
            _ = waiting.popFirst()
            let cause = RegistryError.Cause(kind: "acquire_timeout", statement: read.statement.name)
            read.answer(.failure(ConnectionPool.noSessionInTime.caused(by: cause)))
        }
        while let request = leases.first, request.deadline <= now {
            _ = leases.popFirst()
            let cause = RegistryError.Cause(kind: "acquire_timeout", statement: ConnectionPool.begin.name)
            request.grant(.failure(ConnectionPool.noSessionInTime.caused(by: cause)))
        }
        serve()
    }

    // MARK: - Sending

    /// Sends waiting reads to the least busy sessions with room and lends idle transaction
    /// sessions to waiting leases, then opens sessions: for reads while reads are waiting or in
    /// flight and fewer than `loopSessions` are open or opening, for transactions while leases
    /// wait and fewer than `loopTransactions` are.
    private func serve() {
        guard !closed else { return }
        while !waiting.isEmpty, let session = sessionWithRoom(), let read = waiting.popFirst() {
            send(read, on: session)
        }
        while !leases.isEmpty, let session = sessions.first(where: { $0.forTransactions && !$0.isLeased }),
            let request = leases.popFirst()
        {
            session.isLeased = true
            request.grant(.success(LeasedSession(sessions: self, session: session)))
        }
        let transactionSessions = sessions.count { $0.forTransactions }
        let busy = !waiting.isEmpty || sessions.contains { !$0.forTransactions && !$0.reads.isEmpty }
        while busy && sessions.count - transactionSessions + connecting < config.loopSessions { open(forTransactions: false) }
        while leases.count > connectingForTransactions && transactionSessions + connectingForTransactions < config.loopTransactions {
            open(forTransactions: true)
        }
        publish()
    }

    private func sessionWithRoom() -> LoopSession? {
        sessions.filter { $0.reads.count < config.loopReadsInFlight && !$0.retiring && !$0.forTransactions }
            .min { $0.reads.count < $1.reads.count }
    }

    private func send(_ read: LoopStatement, on session: LoopSession) {
        var read = read
        do {
            if let check = read.standbyCheck, !session.probeInFlight {
                if let position = session.reusablePosition(for: check) {
                    if let refusal = check.refusal(of: position) { return read.answer(.failure(StandbySkip(reason: refusal))) }
                } else {
                    try sendProbe(on: session)
                }
            }
            try session.connection.sendPipelined(read.statement, read.parameters, sync: read.sync)
        } catch {
            guard !session.connection.isUsable else { return read.answer(.failure(error)) }
            // Nothing reached the server: a read keeps its place and its retry; a transaction's
            // statement belongs to its session and fails with it.
            if session.forTransactions { read.answer(.failure(error)) } else { waiting.prepend(read) }
            return drop(session, failing: error)
        }
        read.deadline = .now + config.responseTimeout
        session.reads.append(read)
        flush(session)
    }

    /// Pipelines a probe of the session's replay position before the read about to be sent,
    /// which is then checked against its answer (`receive`).
    private func sendProbe(on session: LoopSession) throws(PGError) {
        var probe = LoopStatement.replayProbe
        try session.connection.sendPipelined(probe.statement, probe.parameters)
        probe.deadline = .now + config.responseTimeout
        session.reads.append(probe)
        session.probeInFlight = true
        session.probedAt = .now
    }

    private func flush(_ session: LoopSession) {
        let pending = session.connection.flushPipeline()
        guard session.connection.isUsable else {
            return drop(session, failing: PGError(kind: .connectionLost, debugDetail: "could not write to the session"))
        }
        guard pending != session.waitsToWrite else { return }
        session.waitsToWrite = pending
        loop.update(session.descriptor, interest: pending ? .readWrite : .read)
    }

    // MARK: - Answers

    private func handle(_ readiness: Readiness, of session: LoopSession) {
        guard sessions.contains(where: { $0 === session }) else { return }
        if readiness.writable { flush(session) }
        if readiness.readable && sessions.contains(where: { $0 === session }) {
            if session.connection.isPipelineIdle {
                drop(session, failing: PGError(kind: .connectionLost, debugDetail: "the server closed an idle session"))
            } else {
                receive(on: session)
            }
        }
        serve()
    }

    private func receive(on session: LoopSession) {
        for outcome in session.connection.receivePipelined() {
            // Empty only if an answer given in this loop closed the sessions (and answered all).
            guard let read = session.reads.popFirst() else { return }
            if read.isReplayProbe {
                session.probeInFlight = false
                // A probe that failed leaves no position: the reads after it go to the primary.
                session.position = try? ReplayPosition(outcome.get())
                if session.position?.inRecovery == false, session.openedAt + Self.primaryKeptFor < .now { session.retiring = true }
                continue
            }
            switch outcome {
            case .success(let rows):
                if let check = read.standbyCheck, let refusal = session.refusal(for: check) {
                    read.answer(.failure(StandbySkip(reason: refusal)))
                } else {
                    read.answer(.success(rows))
                }
            case .failure(let error): retryOrFail(read, error)
            }
        }
        if !session.connection.isUsable {
            drop(session, failing: PGError(kind: .connectionLost, debugDetail: "the session broke with reads in flight"))
        } else if session.retiring && session.reads.isEmpty {
            remove(session)
        }
    }

    /// Queues a statement again when its retry policy allows it (a read whose session was lost,
    /// or any statement the server aborted in a conflict) and it has not been retried yet;
    /// otherwise fails it.
    private func retryOrFail(_ read: LoopStatement, _ error: PGError) {
        guard !closed else { return read.answer(.failure(Self.shuttingDown)) }
        guard !read.retried, read.retry.allowsRetry(after: error) else { return read.answer(.failure(error)) }
        var again = read
        again.retried = true
        again.deadline = .now + config.acquireTimeout
        waiting.append(again)
    }

    /// Closes `session`; its reads are retried or failed with `error`. A lost session usually
    /// means a restart, which ended the idle ones too, so those are closed as well.
    private func drop(_ session: LoopSession, failing error: PGError) {
        remove(session)
        for read in session.reads.removeAll() { retryOrFail(read, error) }
        if error.isConnectionLoss || error.sqlState?.condemnsSession == true {
            for idle in sessions where idle.reads.isEmpty { remove(idle) }
        }
    }

    /// The connection is finished once the last reference (the readiness handler's) is gone.
    private func remove(_ session: LoopSession) {
        loop.unwatch(session.descriptor)
        sessions.removeAll { $0 === session }
    }

    private func answerLater(_ read: LoopStatement, _ error: RegistryError) {
        if !loop.execute({ read.answer(.failure(error)) }) { read.answer(.failure(error)) }
    }

    // MARK: - Opening sessions

    /// Opens a session on a background thread and hands it to the loop.
    private func open(forTransactions: Bool) {
        if forTransactions { connectingForTransactions += 1 } else { connecting += 1 }
        let pool = self.pool
        let loop = self.loop
        let thread = Thread {
            let opened = Opened(
                result: Result { () throws(PGError) -> PGConnection in
                    let connection = try pool.openSession()
                    try connection.enterPipelineMode()
                    return connection
                })
            // A stopped loop takes no task; the session is then closed on this thread.
            loop.execute { self.adopt(opened, forTransactions: forTransactions) }
        }
        thread.name = "registry-loop-connect"
        thread.start()
    }

    private func adopt(_ opened: Opened, forTransactions: Bool) {
        if forTransactions { connectingForTransactions -= 1 } else { connecting -= 1 }
        var failure: PGError?
        switch opened.result {
        case .success(let connection):
            guard !closed else { return }
            let session = LoopSession(connection, forTransactions: forTransactions)
            do {
                try loop.watch(session.descriptor, interest: .read) { readiness in self.handle(readiness, of: session) }
                sessions.append(session)
            } catch {
                failure = PGError(kind: .connectionFailed, debugDetail: error.description)
            }
        case .failure(let error):
            failure = error
        }
        if let failure {
            pool.noteConnectFailure(failure)
            // Fail fast when no session can take the waiting reads; otherwise they wait for one.
            let refusal = pool.refusal(after: failure)
            if !sessions.contains(where: { !$0.forTransactions }) && connecting == 0 {
                for read in waiting.removeAll() { read.answer(.failure(refusal)) }
            }
            if !sessions.contains(where: { $0.forTransactions }) && connectingForTransactions == 0 {
                for request in leases.removeAll() { request.grant(.failure(refusal)) }
            }
        }
        serve()
    }

    private func publish() {
        let now = LoopSessionStats(
            open: sessions.count, inFlight: sessions.reduce(0) { $0 + $1.reads.count }, waiting: waiting.count)
        guard now != reported else { return }
        pool.loopFigures.move(from: reported, to: now)
        reported = now
    }
}

/// A lease waiting for a transaction session.
private struct LeaseRequest {
    let deadline: ContinuousClock.Instant
    let grant: @Sendable (Result<LeasedSession, any Error>) -> Void
}

/// A session opened for a loop on a background thread. `@unchecked Sendable`: that thread
/// hands it over and never touches it again.
private struct Opened: @unchecked Sendable {
    let result: Result<PGConnection, PGError>
}
