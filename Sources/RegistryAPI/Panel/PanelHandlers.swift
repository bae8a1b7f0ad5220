import HTTPServer
import Registry

/// `GET /panel/{asset}`: the control panel's embedded files. No token: the page itself holds
/// no data; every call it makes to `/api/` carries the token the user signs in with.
enum PanelHandlers {
    /// Scripts and styles only from the panel's own files (no inline code), no framing.
    static let contentSecurityPolicy =
        "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"

    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-cache"),
        ("Referrer-Policy", "no-referrer"),
    ]

    static func asset(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let name = call.rawParameters["asset"] ?? ""
        guard let asset = PanelAssets.entry(named: name) else {
            throw .notFound("no such panel file: \(JSONWriter.string(.string(name)))")
        }
        let headers = [("ETag", asset.etag)] + securityHeaders
        if let condition = call.request.header("if-none-match"), matches(condition, etag: asset.etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", asset.contentType)] + headers, body: asset.body)
    }

    /// `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): `*`, or any listed tag
    /// equal to ours once a `W/` prefix is ignored.
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingSpaces()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag[...]
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
