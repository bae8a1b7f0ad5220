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

    /// `/panel` → `/panel/`, so relative asset URLs resolve inside the panel.
    static func redirect(_ call: Call) throws(RegistryError) -> HTTPResponse {
        HTTPResponse(status: 308, headers: [("Location", "/panel/")])
    }

    static func asset(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let name = call.rawParameters["asset"] ?? ""
        guard let asset = PanelAssets.entry(named: name) else {
            throw .notFound("no such panel file: \(ClientText.quoted(name))")
        }
        let headers = [("ETag", asset.etag)] + securityHeaders
        if EntityTag.matches(call.request.header("if-none-match"), asset.etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", asset.contentType)] + headers, body: asset.body)
    }

}
