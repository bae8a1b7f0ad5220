import Registry

/// A read held by a loop's sessions, waiting or in flight, with its value type erased so one
/// queue holds every kind.
struct LoopRead: Sendable {
    let statement: PGStatement
    let parameters: [(any PGParameter)?]
    /// Decodes the rows, or maps the failure as a blocking read would, and calls the caller's
    /// `done`. The sessions call it once, after taking the read out of every queue.
    let answer: @Sendable (Result<PGResult, any Error>) -> Void
    /// Set once the read has been sent again after losing its session: a read is retried once.
    var retried = false
    /// While waiting, when it stops waiting for a session (`acquireTimeout`); once sent, when it
    /// stops waiting for its answer (`responseTimeout`).
    var deadline: ContinuousClock.Instant = .now
}

extension StoreRead {
    /// The read for a loop's sessions, answering `done` with the same values and errors as the
    /// blocking read: database failures through `PGError.storeError`, the sessions' own
    /// refusals (`RegistryError`) unchanged.
    func loopRead(then done: @escaping @Sendable (Result<Value, any Error>) -> Void) -> LoopRead {
        LoopRead(statement: statement, parameters: parameters) { [decode] outcome in
            done(
                Result {
                    do {
                        return try decode(outcome.get())
                    } catch let error as PGError {
                        throw error.storeError
                    }
                })
        }
    }
}
