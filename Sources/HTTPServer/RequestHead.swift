import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Copies the borrowed request line and headers out of MHD on the first access-handler call
/// and checks that every piece is text the API layer can work with.
enum RequestHead {
    static func read(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        limits: RequestLimits,
        queryRefused: Bool
    ) -> (head: Result<HTTPRequest, RequestState.InvalidRequest>, contentLength: UInt64?) {
        let rawHeaders = pairs(of: connection, kind: .HEADER_KIND)
        // Read before any validation, so an invalid request's oversized body is refused unread.
        // Framing checks below refuse several lengths, so first and last agree whenever it matters.
        let contentLength = rawHeaders.first { ASCIICase.matches($0.name, "content-length") }
            .flatMap { UInt64(String(decoding: $0.value, as: UTF8.self)) }  // MHD trims values
        do throws(RequestState.InvalidRequest) {
            let methodBytes = cString(method)
            guard methodBytes.count <= limits.maxMethodBytes else {
                throw .init(reason: "method: \(methodBytes.count) bytes, longer than \(limits.maxMethodBytes)", closeConnection: true)
            }
            try RequestFraming.check(rawHeaders, httpVersion: cString(version))
            let method = try text(methodBytes, "method")
            let path = try text(cString(url), "path")
            var query: [(name: String, value: String)] = []
            let rawQuery = pairs(of: connection, kind: .GET_ARGUMENT_KIND)
            guard !queryRefused, rawQuery.count <= limits.maxQueryParameters else {
                throw .init(reason: "query: more than \(limits.maxQueryParameters) parameters", closeConnection: true)
            }
            for (index, pair) in rawQuery.enumerated() {
                let name = try text(pair.name, "query parameter \(index + 1) name")
                let value = try text(pair.value, "query parameter \"\(name)\" value")
                query.append((name, value))
            }
            var headers: [(name: String, value: String)] = []
            for (index, pair) in rawHeaders.enumerated() {
                let name = try text(pair.name, "header \(index + 1) name", lowercased: true)
                let value = try text(pair.value, "header \"\(name)\" value")
                headers.append((name, value))
            }
            return (.success(HTTPRequest(method: method, path: path, query: query, lowercasedHeaders: headers)), contentLength)
        } catch {
            return (.failure(error), contentLength)
        }
    }

    /// The bytes as a string, with ASCII letters lowercased when asked (header names).
    private static func text(_ bytes: UnsafeRawBufferPointer, _ what: @autoclosure () -> String, lowercased: Bool = false)
        throws(RequestState.InvalidRequest) -> String
    {
        var hasNUL = false
        var isASCII = true
        for byte in bytes {
            if byte == 0 { hasNUL = true }
            if byte >= 0x80 { isASCII = false }
        }
        if hasNUL { throw .init(reason: "\(what()) contains a NUL byte") }
        if isASCII {
            // ASCII, the usual case: always valid UTF-8, so a plain copy (lowercased in the same
            // pass for header names).
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                if lowercased {
                    for (index, byte) in bytes.enumerated() { out[index] = ASCIICase.lowercased(byte) }
                } else {
                    _ = out.initialize(fromContentsOf: bytes)
                }
                return bytes.count
            }
        }
        let lower: (UInt8) -> UInt8 = { lowercased ? ASCIICase.lowercased($0) : $0 }
        guard let string = String(validating: bytes.lazy.map(lower), as: UTF8.self) else {
            throw .init(reason: "\(what()) is not valid UTF-8")
        }
        return string
    }

    private static func cString(_ pointer: UnsafePointer<CChar>?) -> UnsafeRawBufferPointer {
        guard let pointer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
    }

    /// Values of one kind in the order MHD received them, with explicit sizes so that an
    /// embedded NUL is seen rather than silently truncating the value. The buffers are MHD's,
    /// valid until the request completes; they are copied into strings right away.
    private static func pairs(of connection: OpaquePointer, kind: MHD_ValueKind)
        -> [(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)]
    {
        typealias Pairs = [(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)]
        var collected: Pairs = []
        withUnsafeMutablePointer(to: &collected) { collector in
            _ = MHD_get_connection_values_n(connection, kind, { cls, _, key, keySize, value, valueSize in
                guard let cls else { return .NO }
                let name = UnsafeRawBufferPointer(start: key, count: key == nil ? 0 : keySize)
                let value = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
                cls.assumingMemoryBound(to: Pairs.self).pointee.append((name, value))
                return .YES
            }, collector)
        }
        return collected
    }
}
