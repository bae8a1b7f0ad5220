import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A client's IP address without its port: what the waiting room counts one client's parked
/// requests by, like libmicrohttpd's per-address connection limit. Two words, so counting
/// costs no allocation. Each daemon listens on one family, so an IPv4 address and the IPv6
/// address that maps it are never both seen.
struct ClientAddress: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    /// Connections whose address MHD cannot tell share this one key.
    static let unknown = ClientAddress(high: .max, low: .max)

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// IPv4 is kept as its four bytes in `low`, with `high` 0; IPv6 as its sixteen.
    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else {
            self = .unknown
            return
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self.init(high: 0, low: UInt64(UInt32(bigEndian: bytes)))
        case AF_INET6:
            let words = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { raw in
                    (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                     UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
                }
            }
            self.init(high: words.0, low: words.1)
        default:
            self = .unknown
        }
    }

    /// Only on the connection's event loop (from a callback of its daemon).
    init(of connection: OpaquePointer) {
        self.init(cmhd_connection_client_address(connection))
    }
}
