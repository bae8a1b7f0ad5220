/// One read of the store written once: its statement, its parameters and how its rows become
/// the domain value. The blocking methods run it on a pooled session; an event loop sends it on
/// one of its pipelined sessions. Either way the SQL, the parameters and the decoding are these.
struct StoreRead<Value>: Sendable {
    let statement: PGStatement
    let parameters: [(any PGParameter)?]
    /// Turns the statement's rows into the answer; a `PGError` it throws is a 500, as a
    /// blocking read's would be.
    let decode: @Sendable (PGResult) throws -> Value

    /// Runs the read on a session lent by the pool (blocking).
    func run(on connection: PGConnection) throws -> Value {
        try decode(connection.execute(statement, parameters))
    }
}

extension ConnectionPool {
    /// Runs `read` on a pooled session, retried once after a lost session like every read, with
    /// the failures mapped to the service's errors.
    func read<Value>(_ read: StoreRead<Value>) throws -> Value {
        try perform(.read) { try read.run(on: $0) }
    }
}
