import Registry

/// A statement held by a loop's sessions, waiting or in flight, with its value type erased so
/// one queue holds every kind.
struct LoopStatement: Sendable {
    let statement: PGStatement
    let parameters: [(any PGParameter)?]
    /// When it may be sent again: a read after a lost session or a conflict, a write only
    /// after a conflict (the server rolled it back).
    let retry: RetryPolicy
    /// False for a statement of a transaction's batch that shares the next one's sync
    /// (`LeasedSession`); every other statement runs as its own implicit transaction.
    var sync = true
    /// Set for a read a standby answers only if its replay position passes (`StandbyReads`):
    /// its session's probed position is checked when the answer arrives, and a refused answer
    /// fails with `StandbySkip`.
    var standbyCheck: StandbyCheck? = nil
    /// The probe of a standby session's replay position, pipelined before a checked read; its
    /// answer is the session's, nobody waits for it.
    var isReplayProbe = false
    /// Decodes the rows, or maps the failure as a blocking call would, and calls the caller's
    /// `done`. The sessions call it once, after taking the statement out of every queue.
    let answer: @Sendable (Result<PGResult, any Error>) -> Void
    /// Set once the statement has been sent again: it is retried at most once.
    var retried = false
    /// While waiting, when it stops waiting for a session (`acquireTimeout`); once sent, when it
    /// stops waiting for its answer (`responseTimeout`).
    var deadline: ContinuousClock.Instant = .now
}

extension StoreStatement {
    /// The statement for a loop's sessions, answering `done` with the same values and errors as
    /// the blocking call: database failures through `PGError.storeError`, named after this
    /// statement, the sessions' own refusals (`RegistryError`) unchanged.
    func onLoop(
        checking standbyCheck: StandbyCheck? = nil, then done: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> LoopStatement {
        LoopStatement(statement: statement, parameters: parameters, retry: retry, standbyCheck: standbyCheck) { [self] outcome in
            done(
                Result {
                    do {
                        return try decode(outcome.get())
                    } catch {
                        let failure = named(error)
                        throw (failure as? PGError)?.storeError ?? failure
                    }
                })
        }
    }
}

extension LoopStatement {
    /// A probe of the session's replay position (`ReplayPosition`), never sent again.
    static var replayProbe: LoopStatement {
        LoopStatement(statement: ReplayPosition.probe, parameters: [], retry: .never, isReplayProbe: true) { _ in }
    }
}
