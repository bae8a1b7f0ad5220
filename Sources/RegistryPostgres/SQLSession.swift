import EventLoop
import Registry

/// A session held for a whole transaction, statement after statement. The statements that run
/// inside a transaction are written once, over this: a pooled session runs them blocking (off
/// the event loops: tools, tests), a loop's leased session (`LeasedSession`) awaits them holding
/// no thread.
protocol SQLSession {
    func execute(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws -> PGResult
}

/// A session that runs one transaction (`ConnectionPool.transaction`). Statements whose answer
/// nobody reads (`write`) and the BEGIN may wait to travel with the next statement or the
/// COMMIT: a failure among them fails that call, and the transaction then rolls back.
protocol TransactionSession: SQLSession {
    func begin() async throws
    /// Runs `statement` in the transaction, at the latest with the commit.
    func write(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws
    func commit() async throws
    /// Ends the transaction without its changes; a session that cannot is broken, and is
    /// closed when it is given back.
    func rollback() async
}

/// A pooled session runs every statement at once, blocking.
extension PGConnection: TransactionSession {
    func begin() async throws { _ = try execute(ConnectionPool.begin) }

    func write(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws {
        _ = try execute(statement, parameters)
    }

    func commit() async throws { _ = try execute(ConnectionPool.commit) }

    func rollback() async { _ = try? execute(ConnectionPool.rollback) }
}

/// A loop's transaction session, lent to one transaction (`LoopSessions.lease`). Statements are
/// sent in batches that end with one sync, which inside BEGIN … COMMIT ends no transaction: the
/// BEGIN travels with the first statement, the writes with the next statement or the COMMIT,
/// so a publish takes two round trips to the database. A failure in a batch makes the server
/// skip the rest of it. Answers come from the loop's readiness handler; the transaction's task
/// awaits them.
///
/// `@unchecked Sendable`: the session is only touched on its loop's thread (`LoopSessions`
/// moves every call there), and `unsent` only by the transaction's own task, one call at a time.
final class LeasedSession: TransactionSession, @unchecked Sendable {
    private let sessions: LoopSessions
    /// Touched only on the loop's thread.
    let session: LoopSession
    /// The BEGIN and the writes not sent yet, in order.
    private var unsent: [(PGStatement, [(any PGParameter)?])] = []
    /// Whether anything of the transaction reached the session.
    private var sentAny = false

    init(sessions: LoopSessions, session: LoopSession) {
        self.sessions = sessions
        self.session = session
    }

    func begin() async throws { unsent.append((ConnectionPool.begin, [])) }

    func write(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws {
        unsent.append((statement, parameters))
    }

    func commit() async throws { _ = try await execute(ConnectionPool.commit, []) }

    func rollback() async {
        unsent = []
        // Nothing reached the server: there is no transaction to end.
        guard sentAny else { return }
        _ = try? await execute(ConnectionPool.rollback, [])
    }

    /// Sends what is unsent and then `statement`, one sync after the last; returns its rows, or
    /// the batch's first failure (the statements after it fail as skipped).
    func execute(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws -> PGResult {
        var batch = unsent
        unsent = []
        batch.append((statement, parameters))
        sentAny = true
        return try await withCheckedThrowingContinuation { continuation in
            let answers = BatchAnswers(count: batch.count) { continuation.resume(with: $0) }
            let statements = batch.indices.map { index in
                // Never sent again: a statement belongs to its transaction's session.
                LoopStatement(
                    statement: batch[index].0, parameters: batch[index].1, retry: .never, sync: index == batch.count - 1
                ) { answers.take($0) }
            }
            sessions.send(statements, on: self)
        }
    }

    /// Gives the session back once the transaction has ended (committed or rolled back).
    func release() {
        sessions.release(self)
    }
}

/// Collects the answers of one batch, which arrive in order on the loop's thread, and reports
/// the last one's rows or the first failure once all are in.
private final class BatchAnswers: @unchecked Sendable {
    private var remaining: Int
    private var failure: (any Error)?
    private let done: (Result<PGResult, any Error>) -> Void

    init(count: Int, done: @escaping (Result<PGResult, any Error>) -> Void) {
        remaining = count
        self.done = done
    }

    func take(_ outcome: Result<PGResult, any Error>) {
        remaining -= 1
        if failure == nil, case .failure(let error) = outcome { failure = error }
        guard remaining == 0 else { return }
        done(failure.map { .failure($0) } ?? outcome)
    }
}

/// Reads outside any transaction, each its own statement through the pool (`ConnectionPool.value`),
/// for code written over `SQLSession` that also serves a plain read.
struct PooledReads: SQLSession {
    let pool: ConnectionPool

    func execute(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws -> PGResult {
        try await pool.value(of: StoreStatement(statement: statement, parameters: parameters) { $0 })
    }
}
