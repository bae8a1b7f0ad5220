import CMicroHTTPD
import EventLoop

/// Turns an `HTTPResponse` into an MHD response on the connection. MHD copies the header
/// strings; the body is sent from its own storage, which the MHD response keeps alive
/// (`SharedBody`), as it does a streamed remainder, and releases with it.
enum ResponseWriter {
    /// Called on the connection's event loop, which produces a streamed body's later pieces.
    static func queue(_ response: HTTPResponse, on connection: OpaquePointer, closeConnection: Bool) -> MHD_Result {
        if let result = tryQueue(response, on: connection, closeConnection: closeConnection) {
            return result
        }
        // The handler's answer was unusable (bad status or a header MHD refuses).
        return tryQueue(HTTPResponse(status: 500), on: connection, closeConnection: closeConnection) ?? .NO
    }

    /// nil when the response itself is invalid; otherwise MHD's verdict on queueing it.
    private static func tryQueue(_ response: HTTPResponse, on connection: OpaquePointer, closeConnection: Bool) -> MHD_Result? {
        guard (200...599).contains(response.status) else { return nil }  // 1xx are not final answers
        let created: OpaquePointer?
        if let rest = response.rest {
            guard let loop = EventLoop.current else { return nil }
            let streamed = StreamedBody(first: response.body, rest: rest, connection: connection, loop: loop)
            let owned = streamed.opaque
            created = MHD_create_response_from_callback(UInt64.max, 64 * 1024, StreamedBody.reader, owned, StreamedBody.release)
            if created == nil { StreamedBody.release(owned) }
        } else {
            created = SharedBody.response(response.body)
        }
        guard let mhdResponse = created else { return .NO }  // out of memory: drop the connection
        defer { MHD_destroy_response(mhdResponse) }
        // MHD computes the length itself.
        for header in response.headers where !ASCIICase.matches(header.name.utf8, "content-length") {
            let added = withCString(header.name) { name in
                withCString(header.value) { value in MHD_add_response_header(mhdResponse, name, value) }
            }
            guard added == .YES else { return nil }
        }
        if closeConnection || response.closesConnection {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }

    /// Passes `text` to C as a NUL-terminated string. A string longer than 15 bytes is passed
    /// from its own storage; a shorter one is stored inline, and Swift's own conversion would copy
    /// it into a new heap array (four per cached GET: `ETag`, `Content-Type`, …), so it is copied
    /// to the stack here.
    private static func withCString<Result>(_ text: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let count = text.utf8.count
        guard count <= 15 else { return text.withCString(body) }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            for (index, byte) in text.utf8.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[count] = 0
            return body(UnsafePointer(buffer.baseAddress!))
        }
    }
}
