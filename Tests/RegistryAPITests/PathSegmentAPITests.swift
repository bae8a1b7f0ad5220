import Foundation
import Registry
import Testing
import TestSupport

/// Type names that mean something in a URL (`.`, `..`, `%`, `?`, `#`, spaces, emoji) are one
/// percent-encoded path segment each: published, read, turned into a form and deleted by name.
@Suite struct PathSegmentAPITests {
    static let names = [".", "..", "...", "a.b", "100%", "what?", "#1", "with space", "🚀 Rocket", "%2E", "+plus"]

    /// Every byte but letters, digits, `-` and `_` percent-encoded, as the panel's `pathSegment` does.
    static func segment(_ name: String) -> String {
        name.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            return byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || byte == 0x2D || byte == 0x5F)
                ? String(Character(scalar)) : String(format: "%%%02X", byte)
        }.joined()
    }

    @Test(arguments: names)
    func aNameWithURLCharactersRoundTripsThroughEveryVersionRoute(_ name: String) throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let flight = #"{"type":"object","properties":{"gate":{"type":"string"}}}"#
        let published = try tenant.publish(name, flight)
        #expect(published.status == 200, "\(published.bodyText)")
        let path = "/api/live_activity_schemas/\(Self.segment(name))/1?application=\(tenant.code)"

        let read = try tenant.request("GET", path)
        #expect(read.status == 200, "\(path): \(read.bodyText)")
        #expect(try read.json()["schema"]?["attributes_type"] == .string(name), "\(read.bodyText)")
        let form = try tenant.request("GET", "/api/live_activity_schemas/\(Self.segment(name))/1/form?application=\(tenant.code)")
        #expect(form.status == 200, "\(form.bodyText)")

        let deleted = try tenant.request("DELETE", path)
        #expect(deleted.status == 200, "\(path): \(deleted.bodyText)")
        #expect(try tenant.request("GET", path).status == 404)
        #expect(try tenant.list().isEmpty)
    }

    /// A leading `%2F` is dropped, because a name never contains `/`: the one spelling of `.`
    /// and `..` that browsers send as written. Every route that takes `{attributesType}` reads it.
    @Test(arguments: [".", "..", "FlightAttributes"])
    func aLeadingEncodedSlashNamesTheTypeAfterIt(_ name: String) throws {
        let tenant = try TestRegistry.shared().makeTenant()
        #expect(try tenant.publish(name, #"{"type":"object","properties":{"gate":{"type":"string"}}}"#).status == 200)
        #expect(try tenant.publish(name, #"{"type":"object","properties":{"gate":{"type":"string"},"seat":{"type":"string"}}}"#).status == 200)
        let type = "/api/live_activity_schemas/%2F\(Self.segment(name))"
        let query = "?application=\(tenant.code)"
        let reads = [
            ("GET", "\(type)/2\(query)"), ("GET", "\(type)/2/form\(query)"), ("GET", "\(type)/latest\(query)"),
            ("GET", "\(type)/latest/form\(query)"), ("GET", "\(type)/2:diff\(query)"),
            ("GET", "/api/live_activity_types/%2F\(Self.segment(name))/compatibility_policy\(query)"),
        ]
        for (method, path) in reads {
            let response = try tenant.request(method, path)
            #expect(response.status == 200, "\(method) \(path): \(response.bodyText)")
        }
        let check = try tenant.request("POST", "\(type)/2:check\(query)", body: #"{"application":"\#(tenant.code)","event":"update","content_state":{"gate":"B"}}"#)
        #expect(check.status == 200, "\(check.bodyText)")
        #expect(try tenant.request("GET", "\(type)/2\(query)").json()["schema"]?["attributes_type"] == .string(name))
        #expect(try tenant.request("DELETE", "\(type)/2\(query)").status == 200)
        #expect(try tenant.request("GET", "/api/live_activity_schemas/\(Self.segment(name))/2\(query)").status == 404)
    }

    /// Only one leading `/` is an escape; a name still never contains `/`.
    @Test(arguments: ["%2F%2F..", "%2F", "a%2F"])
    func aSlashLeftAfterTheEscapeIsStillRefused(_ segment: String) throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let response = try tenant.request("GET", "/api/live_activity_schemas/\(segment)/1?application=\(tenant.code)")
        #expect(response.status == 400, "\(segment): \(response.bodyText)")
        #expect(response.bodyText.contains("attributesType"), "\(response.bodyText)")
    }
}
