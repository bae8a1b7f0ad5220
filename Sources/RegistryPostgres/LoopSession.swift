/// One pipelined session of a loop: the connection and the reads sent on it, in the order their
/// answers will come.
final class LoopSession {
    /// In pipeline mode; used only on the loop's thread.
    let connection: PGConnection
    /// Kept so the loop can stop watching it after libpq has let it go.
    let descriptor: Int32
    /// Sent and unanswered, oldest first: the order `receivePipelined` returns outcomes in.
    var reads = FIFO<LoopStatement>()
    /// Whether the loop also waits for the socket to be writable (libpq holds unsent output).
    var waitsToWrite = false

    init(_ connection: PGConnection) {
        self.connection = connection
        self.descriptor = connection.socketDescriptor
    }

    /// When its oldest read stops waiting for an answer: later reads were sent after it.
    var deadline: ContinuousClock.Instant? { reads.first?.deadline }
}
