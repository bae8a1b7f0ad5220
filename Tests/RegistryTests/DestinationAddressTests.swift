import Registry
import Testing

/// Every address class a webhook may not reach without REGISTRY_WEBHOOK_ALLOW_PRIVATE, and
/// URLs refused before anything resolves them.
@Suite struct DestinationAddressTests {
    static func v4(_ text: String) -> [UInt8] { text.split(separator: ".").map { UInt8($0)! } }

    static func v6(_ groups: [UInt16]) -> [UInt8] { groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } }

    static let refused: [(String, [UInt8], DestinationAddressClass)] = [
        ("0.0.0.0", v4("0.0.0.0"), .unspecified),
        ("127.0.0.1", v4("127.0.0.1"), .loopback),
        ("127.255.0.9", v4("127.255.0.9"), .loopback),
        ("10.1.2.3", v4("10.1.2.3"), .private),
        ("172.16.0.1", v4("172.16.0.1"), .private),
        ("172.31.255.255", v4("172.31.255.255"), .private),
        ("192.168.1.1", v4("192.168.1.1"), .private),
        ("169.254.1.1", v4("169.254.1.1"), .linkLocal),
        ("169.254.169.254", v4("169.254.169.254"), .cloudMetadata),
        ("100.64.0.1", v4("100.64.0.1"), .sharedAddressSpace),
        ("100.127.255.254", v4("100.127.255.254"), .sharedAddressSpace),
        ("224.0.0.1", v4("224.0.0.1"), .multicast),
        ("239.255.255.250", v4("239.255.255.250"), .multicast),
        ("255.255.255.255", v4("255.255.255.255"), .reserved),
        ("192.0.2.1", v4("192.0.2.1"), .reserved),
        ("::", v6([0, 0, 0, 0, 0, 0, 0, 0]), .unspecified),
        ("::1", v6([0, 0, 0, 0, 0, 0, 0, 1]), .loopback),
        ("::ffff:127.0.0.1", v6([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]), .loopback),
        ("::ffff:10.0.0.1", v6([0, 0, 0, 0, 0, 0xffff, 0x0a00, 1]), .private),
        ("::ffff:169.254.169.254", v6([0, 0, 0, 0, 0, 0xffff, 0xa9fe, 0xa9fe]), .cloudMetadata),
        ("64:ff9b::192.168.0.1", v6([0x64, 0xff9b, 0, 0, 0, 0, 0xc0a8, 1]), .private),
        ("fc00::1", v6([0xfc00, 0, 0, 0, 0, 0, 0, 1]), .private),
        ("fd12:3456::1", v6([0xfd12, 0x3456, 0, 0, 0, 0, 0, 1]), .private),
        ("fd00:ec2::254", v6([0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x254]), .cloudMetadata),
        ("fe80::1", v6([0xfe80, 0, 0, 0, 0, 0, 0, 1]), .linkLocal),
        ("ff02::1", v6([0xff02, 0, 0, 0, 0, 0, 0, 1]), .multicast),
        ("2001:db8::1", v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]), .reserved),
    ]

    static let allowed: [(String, [UInt8])] = [
        ("93.184.216.34", v4("93.184.216.34")),
        ("8.8.8.8", v4("8.8.8.8")),
        ("172.32.0.1", v4("172.32.0.1")),
        ("100.128.0.1", v4("100.128.0.1")),
        ("169.253.1.1", v4("169.253.1.1")),
        ("2606:4700::1111", v6([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111])),
        ("::ffff:8.8.8.8", v6([0, 0, 0, 0, 0, 0xffff, 0x0808, 0x0808])),
    ]

    @Test func everyRefusedClassIsRefusedUnlessAllowed() {
        var checked = 0
        for (text, address, expected) in Self.refused {
            #expect(DestinationAddressClass.of(address) == expected, "\(text)")
            #expect(DestinationPolicy().refusal(of: address) == expected, "\(text)")
            #expect(DestinationPolicy(allowPrivate: true).refusal(of: address) == nil, "\(text)")
            checked += 1
        }
        #expect(checked == Self.refused.count && checked >= 27)
        // Every class is among the cases.
        #expect(Set(Self.refused.map(\.2.rawValue)) == Set(DestinationAddressClass.allCases.map(\.rawValue)))
    }

    @Test func publicAddressesAreAllowed() {
        for (text, address) in Self.allowed { #expect(DestinationAddressClass.of(address) == nil, "\(text)") }
        #expect(DestinationAddressClass.of([1, 2, 3]) == .reserved)
    }

    @Test func urlsMustBeHTTPSUnlessHTTPIsAllowed() throws {
        let strict = DestinationPolicy()
        let destination = try WebhookDestination(parsing: "https://Hooks.Example.com:8443/in?x=1", policy: strict)
        #expect(destination.host == "hooks.example.com")
        #expect(destination.port == 8443)
        #expect(try WebhookDestination(parsing: "https://[::1]/x", policy: strict).host == "::1")
        #expect(try WebhookDestination(parsing: "https://example.com", policy: strict).port == 443)
        for refused in [
            "http://example.com/", "ftp://example.com/", "example.com", "https://user:pw@example.com/", "https://example.com/#x",
            "https://", "https://example.com:0/", "https://example.com:99999/", "https://exa mple.com/", "https://[::1/",
            "", "https://ex\u{e4}mple.com/", "https://" + String(repeating: "a", count: 2100) + ".com/",
        ] {
            #expect(throws: RegistryError.self, "\(refused)") { try WebhookDestination(parsing: refused, policy: strict) }
        }
        #expect(try WebhookDestination(parsing: "http://127.0.0.1:9/", policy: DestinationPolicy(allowHTTP: true)).port == 9)
    }
}
