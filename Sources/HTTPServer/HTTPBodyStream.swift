/// The rest of a response body, produced piece by piece after the first piece (in
/// `HTTPResponse.body`) went out with the headers. Each call runs on the connection's event
/// loop, so it must not block: it awaits what it waits for (a database read). The next call
/// comes only once the client has taken the previous piece, so a slow reader holds one piece
/// in memory and no thread at all.
///
/// A throw after the headers were sent can only cut the response short: the connection is
/// closed without the final chunk, which a client sees as an incomplete response.
public protocol HTTPBodyStream: Sendable {
    /// The next piece, or nil when the body is complete. Empty pieces are skipped.
    func next() async throws -> [UInt8]?
}
