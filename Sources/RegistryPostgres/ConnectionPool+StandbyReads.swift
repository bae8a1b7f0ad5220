import EventLoop
import Registry

/// Reads the standby may answer while a primary answers (`StandbyReads`): sent there when the
/// rule's requirement allows, checked against the serving session's replay position, and
/// answered by the primary (`primary`) when the standby is refused, finds nothing or fails.
extension ConnectionPool {
    /// Blocking: the position is probed on the session that then runs the read.
    func routed<Value>(_ statement: StoreStatement<Value>, primary: () throws -> Value) throws -> Value {
        guard let standby, let reads = standbyReads, let eligible = statement.standbyRead else { return try primary() }
        switch reads.requirement(committed: changeHints.committedCount, application: eligible.application) {
        case .primary(let reason):
            reads.noteServedByPrimary(skipping: reason)
        case .standby(let check):
            let result = Result<Value, any Error> {
                try standby.withConnection(retry: .read) { connection in
                    let position = try ReplayPosition(connection.execute(ReplayPosition.probe))
                    if let refusal = check.refusal(of: position) { throw StandbySkip(reason: refusal) }
                    return try statement.forStandby.run(on: connection)
                }
            }
            if let value = reads.served(result, confirms: eligible.confirms) { return value }
        }
        return try primary()
    }

    /// On an event loop: the read goes to the standby's sessions of `loop`, which check it
    /// against their probe (`LoopSessions`); `primary` runs on the loop when they refuse it.
    func routed<Value>(
        _ statement: StoreStatement<Value>, on loop: EventLoop, then done: @escaping @Sendable (Result<Value, any Error>) -> Void,
        primary: @escaping @Sendable () -> Void
    ) {
        guard let standby, let reads = standbyReads, let eligible = statement.standbyRead else { return primary() }
        switch reads.requirement(committed: changeHints.committedCount, application: eligible.application) {
        case .primary(let reason):
            reads.noteServedByPrimary(skipping: reason)
            primary()
        case .standby(let check):
            LoopSessions.on(loop, for: standby).start(
                statement.forStandby.onLoop(checking: check) { result in
                    if let value = reads.served(result, confirms: eligible.confirms) { return done(.success(value)) }
                    primary()
                })
        }
    }
}
