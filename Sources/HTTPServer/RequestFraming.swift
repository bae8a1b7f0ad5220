/// Refuses request heads whose body framing or target is ambiguous (RFC 9112 §6.3, §3.2).
///
/// libmicrohttpd 0.9.75 is lenient: with two `Content-Length` headers the first wins, with
/// `Content-Length` and `Transfer-Encoding` chunked wins, and a `Transfer-Encoding` other than
/// `chunked` makes it wait for a body it cannot delimit. A proxy in front may read the same
/// bytes differently, which is how requests are smuggled; so these heads are answered with a
/// 400 and the connection is closed before any body byte is read.
enum RequestFraming {
    static func check(
        _ headers: [(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)], httpVersion: UnsafeRawBufferPointer
    ) throws(RequestState.InvalidRequest) {
        var lengths = 0
        var transferEncodings: [UnsafeRawBufferPointer] = []
        var hosts = 0
        for header in headers {
            if ASCIICase.matches(header.name, "content-length") {
                lengths += 1
            } else if ASCIICase.matches(header.name, "transfer-encoding") {
                transferEncodings.append(header.value)
            } else if ASCIICase.matches(header.name, "host") {
                hosts += 1
            }
        }
        guard lengths <= 1 else { throw refused("several Content-Length headers") }
        if !transferEncodings.isEmpty {
            guard lengths == 0 else { throw refused("both Content-Length and Transfer-Encoding") }
            guard transferEncodings.count == 1, ASCIICase.matches(transferEncodings[0], "chunked") else {
                throw refused("Transfer-Encoding other than chunked")
            }
        }
        if ASCIICase.matches(httpVersion, "http/1.1") {
            guard hosts == 1 else { throw refused(hosts == 0 ? "no Host header" : "several Host headers") }
        }
    }

    private static func refused(_ what: String) -> RequestState.InvalidRequest {
        .init(reason: "request framing: \(what)", closeConnection: true)
    }
}

/// Bounds on what a request head may carry beyond libmicrohttpd's own memory limit.
struct RequestLimits: Sendable {
    /// Methods are tokens like `GET`; anything longer is refused before routing, so a client
    /// cannot make the service keep or echo megabytes of method name.
    let maxMethodBytes: Int
    let maxQueryParameters: Int
}
