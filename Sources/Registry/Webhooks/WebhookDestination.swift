/// A webhook URL, checked before anything resolves it: absolute `https` (or `http` where the
/// operator allows it), printable ASCII, no credentials, no fragment, at most 2048 bytes. The
/// host's addresses are checked separately (`DestinationAddressClass`), at creation and at
/// every connect.
public struct WebhookDestination: Sendable, Equatable {
    public static let maxBytes = 2048

    public let url: String
    public let isHTTPS: Bool
    /// The host as the URL names it, IPv6 literals without brackets.
    public let host: String
    public let port: Int

    public init(parsing url: String, policy: DestinationPolicy) throws(RegistryError) {
        func refuse(_ why: String) -> RegistryError { .invalidArgument("url: \(why)") }
        let bytes = Array(url.utf8)
        guard !bytes.isEmpty else { throw refuse("is required") }
        guard bytes.count <= Self.maxBytes else { throw refuse("must be at most \(Self.maxBytes) bytes") }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw refuse("must be printable ASCII without spaces (percent-encode the rest)")
        }
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            isHTTPS = true
            rest = url.dropFirst("https://".count)
        } else if lower.hasPrefix("http://") {
            guard policy.allowHTTP else { throw refuse("must be https (plain http needs REGISTRY_WEBHOOK_ALLOW_HTTP)") }
            isHTTPS = false
            rest = url.dropFirst("http://".count)
        } else {
            throw refuse("must be an absolute https URL")
        }
        guard !url.contains("#") else { throw refuse("must not have a fragment") }
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        guard !authority.contains("@") else { throw refuse("must not carry credentials") }
        var hostPart = Substring(authority)
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw refuse("has an unclosed IPv6 literal") }
            let after = hostPart[hostPart.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("has text after its IPv6 literal") }
                portText = after.dropFirst()
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw refuse("must name a host") }
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else { throw refuse("has an invalid port") }
            port = number
        } else {
            port = isHTTPS ? 443 : 80
        }
        self.url = url
        host = String(hostPart).lowercased()
    }
}
