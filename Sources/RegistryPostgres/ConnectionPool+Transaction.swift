import EventLoop
import Registry

extension ConnectionPool {
    /// Runs `body` in one write transaction on one session: committed when it returns, rolled
    /// back when it throws. On an event loop the transaction leases one of the loop's transaction
    /// sessions and awaits each statement holding no thread; anywhere else (tools, tests) it
    /// holds a pooled session and blocks. A transient conflict (serialization failure,
    /// deadlock) runs `body` once more from the start, on a new transaction. The database's
    /// failures become the service's errors; what `body` throws passes through.
    func transaction<T: Sendable>(_ body: (any TransactionSession) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await inOneTransaction(body)
            } catch let error as PGError {
                if attempt == 1 && RetryPolicy.write.allowsRetry(after: error) {
                    attempt += 1
                    continue
                }
                throw error.storeError
            }
        }
    }

    private func inOneTransaction<T: Sendable>(_ body: (any TransactionSession) async throws -> T) async throws -> T {
        if let loop = EventLoop.current {
            let session = try await withCheckedThrowingContinuation { continuation in
                LoopSessions.on(loop, for: self).lease { continuation.resume(with: $0) }
            }
            defer { session.release() }
            return try await Self.run(body, on: session)
        }
        let connection = try checkout()
        do {
            let value = try await Self.run(body, on: connection)
            checkin(connection)
            return value
        } catch {
            checkin(connection, after: error)
            throw error
        }
    }

    private static func run<T>(_ body: (any TransactionSession) async throws -> T, on session: any TransactionSession) async throws -> T {
        try await session.begin()
        let value: T
        do {
            value = try await body(session)
            try await session.commit()
        } catch {
            await session.rollback()
            throw error
        }
        return value
    }

    static let begin = PGStatement(file: "transaction_begin")
    static let commit = PGStatement(file: "transaction_commit")
    static let rollback = PGStatement(file: "transaction_rollback")
}
