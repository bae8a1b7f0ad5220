import HTTPServer
import Registry

/// The one place errors become responses: the gateway's body shape
/// `{"code": <gRPC code>, "message": "…", "details": […]}`, details usually empty.
enum ErrorResponse {
    static func make(_ error: RegistryError) -> HTTPResponse {
        let body: JSONValue = [
            "code": .number(String(error.code.rawValue)),
            "message": .string(error.message),
            "details": .array(error.details),
        ]
        var response = JSONResponse.make(status: error.httpStatus, body)
        response.headers.append(contentsOf: error.headers.map { (name: $0.0, value: $0.1) })
        return response
    }
}

/// JSON responses with the right content type.
enum JSONResponse {
    static func make(status: Int = 200, _ value: JSONValue, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: body(value))
    }

    /// The body bytes alone (one JSON text and a newline), for responses that are cached.
    static func body(_ value: JSONValue) -> [UInt8] {
        var body = JSONWriter.bytes(value)
        body.append(UInt8(ascii: "\n"))
        return body
    }
}
