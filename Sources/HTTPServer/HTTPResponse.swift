/// What a handler answers. Kept as plain bytes so this layer stays ignorant of JSON.
///
/// `Content-Length` is computed by the server; a handler-supplied one is ignored.
/// A header MHD refuses (for example one containing CR/LF) or a status outside 200...599
/// turns the answer into an empty 500, so a handler bug can never split a response.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The whole body, or its first piece when `rest` is set.
    public var body: [UInt8]
    /// The remainder of a body too large to hold at once; sent with chunked encoding.
    public var rest: (any HTTPBodyStream)?
    /// Close the connection after this answer (`Connection: close`): a client refused for want
    /// of capacity gives its connection back instead of keeping it idle.
    public var closesConnection: Bool

    public init(
        status: Int, headers: [(String, String)] = [], body: [UInt8] = [], rest: (any HTTPBodyStream)? = nil,
        closesConnection: Bool = false
    ) {
        self.status = status
        self.headers = headers.map { (name: $0.0, value: $0.1) }
        self.body = body
        self.rest = rest
        self.closesConnection = closesConnection
    }
}
