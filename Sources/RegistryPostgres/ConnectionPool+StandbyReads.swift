import EventLoop
import Registry

/// Reads the standby may answer while a primary answers (`StandbyReads`): sent there when the
/// rule's requirement allows, checked against the serving session's replay position, and
/// answered by the primary (`primary`) when the standby is refused, finds nothing or fails.
extension ConnectionPool {
    /// Blocking: the position is probed on the session that then runs the read.
    func routed<Value>(_ statement: StoreStatement<Value>, primary: () throws -> Value) throws -> Value {
        guard let standby, let reads = standbyReads, let confirms = statement.standbyConfirms else { return try primary() }
        let reason: StandbySkip.Reason
        switch reads.requirement(committed: changeHints.committedCount) {
        case .primary(let why):
            reason = why
        case .standby(let check):
            do {
                let value = try standby.withConnection(retry: .read) { connection in
                    let position = try ReplayPosition(connection.execute(ReplayPosition.probe))
                    if let refusal = check.refusal(of: position) { throw StandbySkip(reason: refusal) }
                    return try statement.forStandby.run(on: connection)
                }
                guard confirms(value) else {
                    reads.noteServedByStandby()
                    return value
                }
                reason = .absent
            } catch let skip as StandbySkip {
                reason = skip.reason
            } catch {
                reads.noteStandbyFailed()
                reason = .failed
            }
        }
        reads.noteServedByPrimary(skipping: reason)
        return try primary()
    }

    /// On an event loop: the read goes to the standby's sessions of `loop`, which check it
    /// against their probe (`LoopSessions`); `primary` runs on the loop when they refuse it.
    func routed<Value>(
        _ statement: StoreStatement<Value>, on loop: EventLoop, then done: @escaping @Sendable (Result<Value, any Error>) -> Void,
        primary: @escaping @Sendable () -> Void
    ) {
        guard let standby, let reads = standbyReads, let confirms = statement.standbyConfirms else { return primary() }
        let check: StandbyCheck
        switch reads.requirement(committed: changeHints.committedCount) {
        case .primary(let reason):
            reads.noteServedByPrimary(skipping: reason)
            return primary()
        case .standby(let required):
            check = required
        }
        LoopSessions.on(loop, for: standby).start(
            statement.forStandby.onLoop(checking: check) { result in
                let reason: StandbySkip.Reason
                switch result {
                case .success(let value) where !confirms(value):
                    reads.noteServedByStandby()
                    return done(result)
                case .success: reason = .absent
                case .failure(let skip as StandbySkip): reason = skip.reason
                case .failure:
                    reads.noteStandbyFailed()
                    reason = .failed
                }
                reads.noteServedByPrimary(skipping: reason)
                primary()
            })
    }
}
