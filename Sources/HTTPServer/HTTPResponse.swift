/// Temporary stand-in; replaced by the HTTP module's own file at merge.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers.map { (name: $0.0, value: $0.1) }; self.body = body
    }
}
public enum HTTPRejection: Sendable { case bodyTooLarge(limit: Int); case invalidRequestTarget(String) }
