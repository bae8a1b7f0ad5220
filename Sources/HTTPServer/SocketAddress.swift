#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The address every daemon binds to, built once from the configured host literal.
enum SocketAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    init(host: String, port: Int) throws(HTTPServerError) {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port)).bigEndian
            self = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port)).bigEndian
            self = .v6(v6)
            return
        }
        throw HTTPServerError("host \"\(host)\" is not an IPv4 or IPv6 address literal")
    }

    func withPort(_ port: Int) -> SocketAddress {
        switch self {
        case .v4(var a):
            a.sin_port = in_port_t(UInt16(port)).bigEndian
            return .v4(a)
        case .v6(var a):
            a.sin6_port = in_port_t(UInt16(port)).bigEndian
            return .v6(a)
        }
    }

    var isIPv6: Bool {
        if case .v6 = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .v4(var a):
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &a.sin_addr, &text, socklen_t(text.count))
            return "\(string(fromNulTerminated: text)):\(UInt16(bigEndian: a.sin_port))"
        case .v6(var a):
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            inet_ntop(AF_INET6, &a.sin6_addr, &text, socklen_t(text.count))
            return "[\(string(fromNulTerminated: text))]:\(UInt16(bigEndian: a.sin6_port))"
        }
    }

    func withSockaddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R {
        switch self {
        case .v4(var a):
            return try withUnsafePointer(to: &a) { p throws(E) in
                try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { s throws(E) in
                    try body(s, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(var a):
            return try withUnsafePointer(to: &a) { p throws(E) in
                try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { s throws(E) in
                    try body(s, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// libmicrohttpd only reports a failed start as NULL, and with SO_REUSEPORT a port held by
    /// another SO_REUSEPORT listener of the same user would even be shared silently. Binding a
    /// throwaway socket without SO_REUSEPORT first turns both into a precise error
    /// ("address already in use") before any daemon starts.
    func probeBind() throws(HTTPServerError) {
        let family = isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError("cannot create a socket: \(errnoText())") }
        defer { close(fd) }
        var one: Int32 = 1
        // Same as MHD's own listening sockets, so TIME_WAIT leftovers do not count as "in use".
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if isIPv6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        try withSockaddr { address, length throws(HTTPServerError) in
            guard bind(fd, address, length) == 0 else {
                throw HTTPServerError("cannot bind \(description): \(errnoText())")
            }
        }
    }
}

func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// Text up to the first NUL of a C buffer; invalid UTF-8 is repaired, not rejected.
func string(fromNulTerminated buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
