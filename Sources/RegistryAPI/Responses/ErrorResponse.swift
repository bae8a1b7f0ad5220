import HTTPServer
import Registry

/// The one place errors become responses: the HTTP status of each gRPC code, the headers an
/// error or `APIRefusal` carries, and the gateway's body shape
/// `{"code": <gRPC code>, "message": "…", "details": […]}`, details usually empty.
enum ErrorResponse {
    /// The status each code answers with. The switch is exhaustive, so a new code cannot be
    /// added without choosing its status here.
    static func status(for code: GRPCCode) -> Int {
        switch code {
        case .invalidArgument: 400
        case .unauthenticated: 401
        case .permissionDenied: 403
        case .notFound: 404
        case .unimplemented: 405
        case .alreadyExists: 409
        case .resourceExhausted: 413
        case .internal: 500
        case .unavailable: 503
        }
    }

    /// A domain error; its retry hint becomes `Retry-After`.
    static func make(_ error: RegistryError) -> HTTPResponse {
        make(error, headers: error.retryAfterSeconds.map { [("Retry-After", String($0))] } ?? [])
    }

    static func make(_ refusal: APIRefusal) -> HTTPResponse {
        make(refusal.error, headers: refusal.headers)
    }

    private static func make(_ error: RegistryError, headers: [(String, String)]) -> HTTPResponse {
        let body: JSONValue = [
            "code": .number(String(error.code.rawValue)),
            "message": .string(error.message),
            "details": .array(error.details),
        ]
        return JSONResponse.make(status: status(for: error.code), body, headers: headers)
    }
}

/// JSON responses with the right content type.
enum JSONResponse {
    static func make(status: Int = 200, _ value: JSONValue, headers: [(String, String)] = []) -> HTTPResponse {
        make(status: status, bytes: body(value), headers: headers)
    }

    /// A response whose JSON body is already written.
    static func make(status: Int = 200, bytes body: [UInt8], headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// The body bytes alone (one JSON text and a newline), for responses that are cached.
    static func body(_ value: JSONValue) -> [UInt8] {
        var body = JSONWriter.bytes(value)
        body.append(UInt8(ascii: "\n"))
        return body
    }
}
