import Glibc
import Registry

/// Refuses a webhook URL whose host resolves to an address its policy refuses (loopback,
/// private, link-local, metadata…), or does not resolve at all, when a subscription is written.
/// The delivery worker checks the address it actually connects to again, so this check is for
/// telling the caller early, not the one that keeps requests in.
enum WebhookAddressCheck {
    /// Addresses looked at; a name with more is judged by these.
    static let maxAddresses = 32

    /// Resolves with getaddrinfo (blocking: call it on a handler thread).
    static func check(_ destination: WebhookDestination, policy: DestinationPolicy) throws(RegistryError) {
        guard !policy.allowPrivate else { return }
        let addresses = resolve(destination.host)
        guard !addresses.isEmpty else {
            throw .invalidArgument("url: the host \(ClientText.quoted(destination.host)) does not resolve")
        }
        for address in addresses.prefix(maxAddresses) {
            if let refused = policy.refusal(of: address) {
                throw .invalidArgument(
                    "url: the host \(ClientText.quoted(destination.host)) resolves to a \(refused.rawValue) address, which webhooks may not reach (REGISTRY_WEBHOOK_ALLOW_PRIVATE allows it)")
            }
        }
    }

    /// The IPv4 (4 bytes) and IPv6 (16 bytes) addresses of `host`, a name or a literal.
    static func resolve(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var next = list
        while let entry = next {
            if let address = entry.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        addresses.append(withUnsafeBytes(of: v4.pointee.sin_addr) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        addresses.append(withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) })
                    }
                default: break
                }
            }
            next = entry.pointee.ai_next
        }
        return addresses
    }
}
