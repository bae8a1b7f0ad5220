import Registry

/// A tenant's requests over one keep-alive connection, for tests that send hundreds of them in a
/// row: a fresh TCP connection per request (`Tenant.request`) would dominate their run time.
/// When the server ends the connection (`Connection: close`, or a reused connection that fails),
/// the next request opens a new one; a request is sent again only when it failed on a reused
/// connection, which the server may have closed while it was idle.
public final class TenantSession {
    public let tenant: Tenant
    private var connection: RawHTTPConnection?

    public init(_ tenant: Tenant) {
        self.tenant = tenant
    }

    deinit { connection?.close() }

    /// Sends a request with the tenant's token (and a JSON content type when there is a body).
    public func request(_ method: String, _ target: String, body: String? = nil) throws -> RawHTTPResponse {
        var headers: [(name: String, value: String)] = [(name: "Authorization", value: "Api \(tenant.token)")]
        if body != nil { headers.append((name: "Content-Type", value: "application/json")) }
        let request = RawHTTPRequest(method: method, target: target, headers: headers, body: body.map { Array($0.utf8) })
        let response: RawHTTPResponse
        if let reused = connection {
            do {
                response = try exchange(request, on: reused)
            } catch {
                connection = nil
                response = try exchange(request, on: open())
            }
        } else {
            response = try exchange(request, on: open())
        }
        if response.header("connection")?.lowercased() == "close" { connection = nil }
        return response
    }

    /// POSTs a JSON object to `path`.
    public func post(_ body: JSONObject, path: String) throws -> RawHTTPResponse {
        try request("POST", path, body: JSONWriter.string(.object(body)))
    }

    private func open() throws -> RawHTTPConnection {
        let opened = try RawHTTPConnection(port: tenant.port, timeoutSeconds: 30)
        connection = opened
        return opened
    }

    private func exchange(_ request: RawHTTPRequest, on connection: RawHTTPConnection) throws -> RawHTTPResponse {
        try connection.write(request.encoded(closeConnection: false))
        return try connection.readResponse(requestMethod: request.method)
    }
}
