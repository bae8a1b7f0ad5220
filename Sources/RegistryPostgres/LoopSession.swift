/// One pipelined session of a loop: the connection and the reads sent on it, in the order their
/// answers will come.
final class LoopSession {
    let connection: PGConnection
    let descriptor: Int32
    var reads = FIFO<LoopRead>()
    /// Whether the loop also waits for the socket to be writable (libpq holds unsent output).
    var waitsToWrite = false

    init(_ connection: PGConnection) {
        self.connection = connection
        self.descriptor = connection.socketDescriptor
    }

    /// When its oldest read stops waiting for an answer: later reads were sent after it.
    var deadline: ContinuousClock.Instant? { reads.first?.deadline }
}
