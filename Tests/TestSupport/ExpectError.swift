import Registry
import Testing

/// Checks an error response: status, gRPC code, the gateway body shape, and optionally that
/// the message names something.
public func expectError(
    _ response: RawHTTPResponse, status: Int, code: Int, mentioning text: String? = nil, details: Int = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(response.status == status, "body: \(response.bodyText)", sourceLocation: sourceLocation)
    let body = try response.json()
    #expect(body["code"] == .number(String(code)), sourceLocation: sourceLocation)
    #expect(body["details"]?.arrayValue?.count == details, sourceLocation: sourceLocation)
    if let text {
        #expect(body["message"]?.stringValue?.contains(text) == true, "message: \(body["message"] ?? nil)", sourceLocation: sourceLocation)
    }
}
