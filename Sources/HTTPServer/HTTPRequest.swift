/// One request as the client sent it, with nothing decoded, so that the API layer alone
/// decides how strictly to percent-decode (and can tell `%2F` from `/`).
///
/// Every text field has already been checked to be valid UTF-8 without NUL bytes;
/// requests failing that never reach the handler.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The raw path as sent, without the query; not percent-decoded.
    public var path: String
    /// Query parameters in the order sent; not percent-decoded (MHD turns `+` into a space).
    /// A parameter without `=` has an empty value.
    public var query: [(name: String, value: String)]
    /// Header names are lowercased; repeated headers stay separate entries, in order.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// What the server lends the request (its waiting seat, the handler threads); set by the
    /// server, nil for a request made without one.
    public var services: RequestServices?

    /// Public so that handlers can be tested without a socket.
    public init(
        method: String,
        path: String,
        query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers.map { (name: $0.name.lowercased(), value: $0.value) }
        self.body = body
    }

    /// For the server, whose header names are lowercased already.
    init(method: String, path: String, query: [(name: String, value: String)], lowercasedHeaders: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = lowercasedHeaders
        self.body = []
    }

    /// Case-insensitive because HTTP header names are; the first match wins.
    public func header(_ name: String) -> String? {
        let wanted = name.utf8.contains(where: ASCIICase.isUppercase) ? name.lowercased() : name
        return headers.first { $0.name == wanted }?.value
    }
}
