import EventLoop
import Registry

extension ConnectionPool {
    /// The value of `statement`, awaited. On an event loop it goes to that loop's pipelined
    /// sessions and the task resumes on the loop when it completes, holding no thread meanwhile;
    /// anywhere else it runs on a pooled session, blocking the calling thread.
    func value<Value: Sendable>(of statement: StoreStatement<Value>) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            run(statement) { continuation.resume(with: $0) }
        }
    }

    /// Runs `statement` on the calling thread's event loop, if it runs one, through that loop's
    /// sessions; otherwise on a pooled session, blocking, with `done` called before returning.
    /// A read goes to the standby while no primary is reachable, and there too when the
    /// primary is found gone while it waited or in flight.
    func run<Value>(_ statement: StoreStatement<Value>, then done: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        guard let loop = EventLoop.current else { return done(Result { try self.run(statement) }) }
        let statement = isStandby ? statement.forStandby : statement
        let isRead = statement.retry == .read
        if isRead, readTarget !== self { return readTarget.run(statement, then: done) }
        if isRead, statement.standbyRead != nil, standbyReads != nil {
            return routed(statement, on: loop, then: done) { [self] in send(statement, on: loop, then: done) }
        }
        send(statement, on: loop, then: done)
    }

    /// `run` on this pool's sessions of `loop`, with the standby as the fallback of a read.
    func send<Value>(_ statement: StoreStatement<Value>, on loop: EventLoop, then done: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        let isRead = statement.retry == .read
        let hints = statement.feedsChanges ? changeHints : nil
        LoopSessions.on(loop, for: self).start(
            statement.onLoop { [self] result in
                if isRead, case .failure(let error as RegistryError) = result, let standby = fallback(forReadFailing: error) {
                    return standby.run(statement, then: done)
                }
                if case .success = result { hints?.noteCommittedChange() }
                done(result)
            })
    }
}
