/// Temporary stand-in; replaced by the HTTP module's own file at merge.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [(name: String, value: String)]
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method; self.path = path; self.query = query; self.headers = headers; self.body = body
    }
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first(where: { $0.name == lower })?.value
    }
}
