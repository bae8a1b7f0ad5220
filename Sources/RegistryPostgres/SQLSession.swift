import EventLoop
import Registry

/// A session held for a whole transaction, statement after statement. The statements that run
/// inside a transaction are written once, over this: a pooled session runs them blocking (off
/// the event loops: tools, tests), a loop's leased session (`LeasedSession`) awaits them holding
/// no thread.
protocol SQLSession {
    func execute(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws -> PGResult
}

extension PGConnection: SQLSession {}

/// A loop's transaction session, lent to one transaction (`LoopSessions.lease`). Each statement
/// is sent with its own sync, which inside BEGIN … COMMIT ends no transaction, and answered from
/// the loop's readiness handler; the transaction's task awaits it.
///
/// `@unchecked Sendable`: the session is only touched on its loop's thread (`LoopSessions`
/// moves every call there).
final class LeasedSession: SQLSession, @unchecked Sendable {
    private let sessions: LoopSessions
    /// Touched only on the loop's thread.
    let session: LoopSession

    init(sessions: LoopSessions, session: LoopSession) {
        self.sessions = sessions
        self.session = session
    }

    func execute(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) async throws -> PGResult {
        try await withCheckedThrowingContinuation { continuation in
            // Never sent again: a statement belongs to its transaction's session.
            let statement = LoopStatement(statement: statement, parameters: parameters, retry: .never) { continuation.resume(with: $0) }
            sessions.send(statement, on: self)
        }
    }

    /// Gives the session back once the transaction has ended (committed or rolled back).
    func release() {
        sessions.release(self)
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
