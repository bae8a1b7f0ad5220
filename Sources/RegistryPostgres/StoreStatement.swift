import Registry

/// One statement of the store written once: its SQL, its parameters, how its rows become the
/// domain value, and when it may be sent again. The blocking methods run it on a pooled
/// session; an event loop sends it on one of its pipelined sessions. Either way the SQL, the
/// parameters and the decoding are these.
///
/// A write is one statement too (its change and its audit event in one data-modifying CTE):
/// a single statement is atomic by itself, so it needs no transaction held across round trips
/// and can share a pipelined session with reads.
struct StoreStatement<Value>: Sendable {
    let statement: PGStatement
    let parameters: [(any PGParameter)?]
    /// `.read` for reads; `.write` for writes, which are never sent again after their session
    /// was lost, since they may have committed.
    var retry: RetryPolicy = .read
    /// True for a write that adds to the change feed: once it succeeds, this process hints the
    /// other replicas to read the feed (`ChangeHints`).
    var feedsChanges = false
    /// The same read without its side effects, with the same parameters and rows, for a
    /// standby (which refuses any write); nil when the read has none.
    var onStandby: PGStatement?
    /// Set for a read a standby may answer while a primary answers, when `StandbyReads`' rule
    /// allows: the application whose required position applies, and which answers the primary
    /// must confirm. Nil: only read-only mode sends it to a standby.
    var standbyRead: StandbyRead<Value>?
    /// Turns the statement's rows into the answer; a `PGError` it throws is a 500, as a
    /// blocking read's would be.
    let decode: @Sendable (PGResult) throws -> Value

    /// The statement as a standby pool runs it.
    var forStandby: StoreStatement {
        guard let onStandby else { return self }
        return StoreStatement(
            statement: onStandby, parameters: parameters, retry: retry, feedsChanges: feedsChanges,
            standbyRead: standbyRead, decode: decode)
    }

    /// Runs the statement on a session lent by the pool (blocking).
    func run(on connection: PGConnection) throws -> Value {
        do {
            return try decode(connection.execute(statement, parameters))
        } catch {
            throw named(error)
        }
    }

    /// Runs the statement on the session of an open transaction.
    func run(on session: any SQLSession) async throws -> Value {
        do {
            return try decode(await session.execute(statement, parameters))
        } catch {
            throw named(error)
        }
    }

    /// A failure of this statement, told which statement it was for the log: a `PGError` stays
    /// one (the pool decides on retries from it), and a 500 the decoding threw without a cause
    /// gets one naming the statement whose rows it could not read.
    func named(_ error: any Error) -> any Error {
        switch error {
        case let error as PGError:
            return error.naming(statement.name)
        case let error as RegistryError where error.code == .internal && error.cause == nil:
            return error.caused(by: RegistryError.Cause(kind: "unexpected_result", statement: statement.name))
        default:
            return error
        }
    }
}

/// How a read may be answered by a standby while a primary answers (`StandbyReads`).
struct StandbyRead<Value>: Sendable {
    /// The application read: its required position applies (`RequiredPositions`).
    let application: Int64
    /// True for an answer the primary must confirm: an absence (no such version, no `latest`,
    /// an empty page), the one thing a standby at the required position can still get wrong
    /// about a change committed through another replica that this one has not seen yet.
    let confirms: @Sendable (Value) -> Bool
}

extension ConnectionPool {
    /// Runs `statement` on a pooled session, retried as its policy allows, with the failures
    /// mapped to the service's errors. A read goes to the standby while no primary is
    /// reachable, and there too when the primary is found gone on the way (`fallback`).
    func run<Value>(_ statement: StoreStatement<Value>) throws -> Value {
        let statement = isStandby ? statement.forStandby : statement
        let isRead = statement.retry == .read
        if isRead, readTarget !== self { return try readTarget.run(statement) }
        if isRead, statement.standbyRead != nil, standbyReads != nil {
            return try routed(statement) { try runHere(statement) }
        }
        return try runHere(statement)
    }

    /// `run` on this pool, with the standby as the fallback of a read.
    private func runHere<Value>(_ statement: StoreStatement<Value>) throws -> Value {
        let isRead = statement.retry == .read
        let value: Value
        do {
            value = try perform(statement.retry) { try statement.run(on: $0) }
        } catch let error as RegistryError where isRead {
            guard let standby = fallback(forReadFailing: error) else { throw error }
            return try standby.run(statement)
        }
        if statement.feedsChanges { changeHints.noteCommittedChange() }
        return value
    }
}
