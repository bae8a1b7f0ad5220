import Glibc

// A small blocking HTTP/1.1 client over POSIX sockets, for tests that need exact control over
// the bytes on the wire (raw paths, oversized headers, chunked bodies, keep-alive).

public struct RawHTTPError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

public struct RawHTTPRequest: Sendable {
    public var method: String
    /// Sent verbatim as the request target (path and query).
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// Send the body with `Transfer-Encoding: chunked` in chunks of this size instead of
    /// with `Content-Length`.
    public var chunkSize: Int?

    public init(
        method: String = "GET", target: String, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, chunkSize: Int? = nil
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.chunkSize = chunkSize
    }

    public func encoded(closeConnection: Bool) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if closeConnection { head += "Connection: close\r\n" }
        var bytes: [UInt8]
        if let body, let chunkSize {
            head += "Transfer-Encoding: chunked\r\n\r\n"
            bytes = Array(head.utf8)
            var offset = 0
            while offset < body.count {
                let end = min(offset + max(1, chunkSize), body.count)
                bytes += Array("\(String(end - offset, radix: 16))\r\n".utf8) + body[offset..<end] + Array("\r\n".utf8)
                offset = end
            }
            bytes += Array("0\r\n\r\n".utf8)
        } else if let body {
            head += "Content-Length: \(body.count)\r\n\r\n"
            bytes = Array(head.utf8) + body
        } else {
            bytes = Array((head + "\r\n").utf8)
        }
        return bytes
    }
}

public struct RawHTTPResponse: Sendable {
    public var status: Int
    /// Names lowercased, in order.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }
}

/// One TCP connection; reads are buffered so several responses can be read in sequence.
public final class RawHTTPConnection {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var sawEOF = false

    /// - Parameter sourceAddress: bind the client end to this loopback address first (Linux
    ///   accepts any 127/8 source), so one test can be two clients to a per-address limit.
    public init(port: Int, timeoutSeconds: Double = 5, sourceAddress: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError("socket: \(String(cString: strerror(errno)))") }
        if let sourceAddress {
            var source = sockaddr_in()
            source.sin_family = sa_family_t(AF_INET)
            source.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let error = RawHTTPError("bind \(sourceAddress): \(String(cString: strerror(errno)))")
                Glibc.close(fd)
                fd = -1
                throw error
            }
        }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let error = RawHTTPError("connect to port \(port): \(String(cString: strerror(errno)))")
            Glibc.close(fd)
            fd = -1
            throw error
        }
    }

    deinit { close() }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Throws if the peer has closed the connection (MSG_NOSIGNAL: never a SIGPIPE).
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw RawHTTPError("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads one complete response (skipping 1xx interim responses).
    public func readResponse(requestMethod: String = "GET") throws -> RawHTTPResponse {
        while true {
            if let (response, used) = try Self.parse(buffer[...], requestMethod: requestMethod, atEOF: sawEOF) {
                buffer.removeFirst(used)
                if (100..<200).contains(response.status) { continue }
                return response
            }
            if sawEOF { throw RawHTTPError("connection closed before a complete response (\(buffer.count) bytes)") }
            try fill()
        }
    }

    /// Everything until the peer closes the connection.
    public func readToEOF() throws -> [UInt8] {
        while !sawEOF { try fill() }
        defer { buffer = [] }
        return buffer
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[..<count]
        } else if count == 0 || errno == ECONNRESET {
            sawEOF = true
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
            throw RawHTTPError("timed out waiting for the server (\(buffer.count) bytes so far)")
        } else if errno != EINTR {
            throw RawHTTPError("recv: \(String(cString: strerror(errno)))")
        }
    }

    /// A response and the number of bytes it used, or nil if more bytes are needed.
    static func parse(_ bytes: ArraySlice<UInt8>, requestMethod: String, atEOF: Bool) throws -> (RawHTTPResponse, Int)? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: bytes[bytes.startIndex..<headEnd], as: UTF8.self)
            .split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/"), let status = Int(statusParts[1]) else {
            throw RawHTTPError("bad status line: \(lines[0])")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw RawHTTPError("bad header line: \(line)") }
            headers.append((line[..<colon].lowercased(), trimmed(line[line.index(after: colon)...])))
        }
        var response = RawHTTPResponse(status: status, headers: headers, body: [])
        let bodyStart = headEnd + separator.count
        if requestMethod == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 {
            return (response, bodyStart - bytes.startIndex)
        }
        if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            guard let (body, end) = try decodeChunked(bytes[bodyStart...]) else { return nil }
            response.body = body
            return (response, end - bytes.startIndex)
        }
        if let lengthText = response.header("content-length") {
            guard let length = Int(lengthText) else { throw RawHTTPError("bad content-length \(lengthText)") }
            guard bytes.endIndex - bodyStart >= length else { return nil }
            response.body = Array(bytes[bodyStart..<bodyStart + length])
            return (response, bodyStart + length - bytes.startIndex)
        }
        guard atEOF else { return nil }  // body delimited by the end of the connection
        response.body = Array(bytes[bodyStart...])
        return (response, bytes.endIndex - bytes.startIndex)
    }

    /// The decoded body and the index just past it, or nil if incomplete. Trailers are skipped.
    private static func decodeChunked(_ bytes: ArraySlice<UInt8>) throws -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var index = bytes.startIndex
        func line() -> String? {
            guard let end = bytes[index...].indices.first(where: { bytes[$0...].starts(with: [13, 10]) }) else { return nil }
            defer { index = end + 2 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        while true {
            guard let sizeLine = line() else { return nil }
            let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(trimmed(sizeText[...]), radix: 16) else {
                throw RawHTTPError("bad chunk size line: \(sizeLine)")
            }
            if size == 0 {
                while true {
                    guard let trailer = line() else { return nil }
                    if trailer.isEmpty { return (body, index) }
                }
            }
            guard bytes.endIndex - index >= size + 2 else { return nil }
            body += bytes[index..<index + size]
            index += size + 2
        }
    }
}

public enum RawHTTPClient {
    /// One request with `Connection: close`; the response is read until complete.
    public static func send(
        port: Int, method: String = "GET", target: String, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, chunkSize: Int? = nil, timeoutSeconds: Double = 5
    ) throws -> RawHTTPResponse {
        let request = RawHTTPRequest(method: method, target: target, headers: headers, body: body, chunkSize: chunkSize)
        let connection = try RawHTTPConnection(port: port, timeoutSeconds: timeoutSeconds)
        do {
            try connection.write(request.encoded(closeConnection: true))
        } catch let writeFailed {
            // A server may answer before it has read the whole body (a 413 on the declared
            // length) and close: as curl does, what it said counts; without an answer, the
            // failed write is the error.
            do { return try connection.readResponse(requestMethod: method) } catch { throw writeFailed }
        }
        return try connection.readResponse(requestMethod: method)
    }

    /// Sends arbitrary bytes and returns everything the server sends back before closing.
    /// A failed write (the server may close early on abuse) is not an error: what it said counts.
    public static func sendRaw(port: Int, bytes: [UInt8], timeoutSeconds: Double = 5) throws -> [UInt8] {
        let connection = try RawHTTPConnection(port: port, timeoutSeconds: timeoutSeconds)
        try? connection.write(bytes)
        return try connection.readToEOF()
    }

    /// Two requests over one connection, the second sent only after the first is answered:
    /// both answers arriving proves the server kept the connection alive.
    public static func sendKeepAlive(
        port: Int, first: RawHTTPRequest, second: RawHTTPRequest, timeoutSeconds: Double = 5
    ) throws -> (RawHTTPResponse, RawHTTPResponse) {
        let connection = try RawHTTPConnection(port: port, timeoutSeconds: timeoutSeconds)
        try connection.write(first.encoded(closeConnection: false))
        let firstResponse = try connection.readResponse(requestMethod: first.method)
        try connection.write(second.encoded(closeConnection: true))
        let secondResponse = try connection.readResponse(requestMethod: second.method)
        return (firstResponse, secondResponse)
    }

    /// Parses raw bytes (from `sendRaw`) as one response.
    public static func parse(_ bytes: [UInt8], requestMethod: String = "GET") throws -> RawHTTPResponse {
        guard let (response, _) = try RawHTTPConnection.parse(bytes[...], requestMethod: requestMethod, atEOF: true) else {
            throw RawHTTPError("incomplete response (\(bytes.count) bytes)")
        }
        return response
    }
}

private func trimmed(_ text: Substring) -> String {
    String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
}
