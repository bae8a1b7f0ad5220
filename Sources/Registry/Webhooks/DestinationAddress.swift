/// Why a webhook may not connect to an address: the classes a server-side request forgery
/// aims at. Anything not listed is a public unicast address. Checked on the URL's resolved
/// addresses when a subscription is written, and again on the address each delivery actually
/// connects to, so a name that later resolves elsewhere (DNS rebinding) gains nothing.
public enum DestinationAddressClass: String, Sendable, CaseIterable {
    case unspecified
    case loopback
    /// RFC 1918, and IPv6 unique local (fc00::/7).
    case `private`
    case linkLocal = "link_local"
    case multicast
    /// Carrier-grade NAT, 100.64.0.0/10 (RFC 6598).
    case sharedAddressSpace = "shared_address_space"
    /// Cloud instance-metadata services: 169.254.169.254 and fd00:ec2::254.
    case cloudMetadata = "cloud_metadata"
    /// Reserved, broadcast, documentation and benchmarking ranges: never a real receiver.
    case reserved

    /// The class of a 4-byte IPv4 or 16-byte IPv6 address, nil for a public one. IPv4-mapped
    /// and IPv4-compatible IPv6 addresses (::ffff:a.b.c.d, ::a.b.c.d) and NAT64 (64:ff9b::/96)
    /// are judged by the IPv4 address they carry.
    public static func of(_ address: [UInt8]) -> DestinationAddressClass? {
        switch address.count {
        case 4: return ipv4(address[0], address[1], address[2], address[3])
        case 16: return ipv6(address)
        default: return .reserved
        }
    }

    private static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> DestinationAddressClass? {
        if a == 169, b == 254, c == 169, d == 254 { return .cloudMetadata }
        switch (a, b) {
        case (0, _): return .unspecified
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168): return .private
        case (169, 254): return .linkLocal
        case (100, 64...127): return .sharedAddressSpace
        case (224...239, _): return .multicast
        case (240...255, _): return .reserved
        case (192, 0) where c == 0 || c == 2: return .reserved
        case (198, 18...19): return .reserved
        case (198, 51) where c == 100: return .reserved
        case (203, 0) where c == 113: return .reserved
        default: return nil
        }
    }

    private static func ipv6(_ bytes: [UInt8]) -> DestinationAddressClass? {
        let metadata: [UInt8] = [0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54]
        if bytes == metadata { return .cloudMetadata }
        let firstTen = bytes.prefix(10)
        if firstTen.allSatisfy({ $0 == 0 }) {
            if bytes[10] == 0xff, bytes[11] == 0xff { return ipv4(bytes[12], bytes[13], bytes[14], bytes[15]) }
            if bytes[10] == 0, bytes[11] == 0 {
                if bytes[12...14].allSatisfy({ $0 == 0 }) {
                    if bytes[15] == 0 { return .unspecified }
                    if bytes[15] == 1 { return .loopback }
                }
                return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
            }
        }
        if bytes[0] == 0x00, bytes[1] == 0x64, bytes[2] == 0xff, bytes[3] == 0x9b, bytes[4...11].allSatisfy({ $0 == 0 }) {
            return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes[0] == 0xff { return .multicast }
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return .linkLocal }
        if bytes[0] & 0xfe == 0xfc { return .private }
        // Documentation (2001:db8::/32) and the deprecated site-local fec0::/10.
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x0d, bytes[3] == 0xb8 { return .reserved }
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0xc0 { return .reserved }
        return nil
    }
}

/// Which destinations an operator allows beyond public https ones.
public struct DestinationPolicy: Sendable, Equatable {
    /// Loopback, private, link-local and the other refused classes (`REGISTRY_WEBHOOK_ALLOW_PRIVATE`).
    public var allowPrivate: Bool
    /// Plain `http` URLs (`REGISTRY_WEBHOOK_ALLOW_HTTP`).
    public var allowHTTP: Bool

    public init(allowPrivate: Bool = false, allowHTTP: Bool = false) {
        self.allowPrivate = allowPrivate
        self.allowHTTP = allowHTTP
    }

    /// The refusal of connecting to `address`, nil when allowed.
    public func refusal(of address: [UInt8]) -> DestinationAddressClass? {
        guard !allowPrivate else { return nil }
        return DestinationAddressClass.of(address)
    }
}
