import Registry
import RegistryAPI
import Testing
import TestSupport

/// `GET /api/search` against PostgreSQL: each kind of term, AND of terms, byte order, paging,
/// what matched and where, and the refusals. Index use at scale: SearchIndexPlanTests.
@Suite struct SearchAPITests {
    static func schema(_ field: String) -> String {
        #"{"type":"object","properties":{"\#(field)":{"type":"string"},"legs":{"type":"array","items":{"type":"object","properties":{"gate":{"type":"string"}}}}},"attributes":{"properties":{"flightNumber":{"type":"string"}}}}"#
    }

    static func search(_ tenant: Tenant, _ query: String, extra: String = "") throws -> RawHTTPResponse {
        let encoded = query.addingPercentEncodingForQuery()
        return try tenant.request("GET", "/api/search?application=\(tenant.code)&q=\(encoded)\(extra)")
    }

    static func names(_ response: RawHTTPResponse) throws -> [String] {
        try (response.json()["results"]?.arrayValue ?? []).compactMap { $0["attributes_type"]?.stringValue }
    }

    @Test func eachFilterFindsWhatItNamesAndSaysWhere() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        #expect(try owner.publish("FlightStatus", Self.schema("terminal")).status == 200)
        #expect(try owner.publish("FlightStatus", Self.schema("boarding")).status == 200)
        #expect(try owner.publish("TrainStatus", Self.schema("platform")).status == 200)
        #expect(try owner.publish("Delivery", Self.schema("courier")).status == 200)
        #expect(try MetadataAPITests.put(owner, "Delivery", ["description": "Parcel on its way to the gate", "owner": "team-logistics", "labels": ["team": "logistics"]]).status == 200)
        #expect(try MetadataAPITests.put(owner, "TrainStatus", ["owner": "team-rail", "labels": ["team": "checkout"]]).status == 200)
        #expect(try MetadataAPITests.putVersion(owner, "FlightStatus", 2, ["labels": ["app_version": "2.3.1"]]).status == 200)

        // A bare word: name (ASCII letters folded), description or owner.
        let status = try Self.search(owner, "STATUS")
        #expect(status.status == 200, "\(status.bodyText)")
        #expect(try Self.names(status) == ["FlightStatus", "TrainStatus"])
        #expect(try status.json()["results"]?.arrayValue?[safe: 0]?["matches"] == [["in": "name", "text": "FlightStatus"]])
        let parcel = try Self.search(owner, "parcel")
        #expect(try Self.names(parcel) == ["Delivery"])
        #expect(try parcel.json()["results"]?.arrayValue?[safe: 0]?["matches"]?.arrayValue?[safe: 0]?["in"] == "description")
        #expect(try Self.names(Self.search(owner, "team-")) == ["Delivery", "TrainStatus"])

        // owner:, label: (type and version labels), field: (name or path, any live version).
        #expect(try Self.names(Self.search(owner, "owner:rail")) == ["TrainStatus"])
        #expect(try Self.names(Self.search(owner, "owner:Status")) == [])
        #expect(try Self.names(Self.search(owner, "label:team=checkout")) == ["TrainStatus"])
        let built = try Self.search(owner, "label:app_version=2.3.1")
        #expect(try Self.names(built) == ["FlightStatus"])
        #expect(try built.json()["results"]?.arrayValue?[safe: 0]?["matches"] == [["in": "label", "text": "app_version=2.3.1", "version": 2]])
        let terminal = try Self.search(owner, "field:terminal")
        #expect(try terminal.json()["results"] == [["attributes_type": "FlightStatus", "matches": [["in": "field", "text": "content-state.terminal", "version": 1, "path": "content-state.terminal"]]]])
        let gate = try Self.search(owner, "field:legs[].gate")
        #expect(try Self.names(gate) == ["Delivery", "FlightStatus", "TrainStatus"])
        #expect(try gate.json()["results"]?.arrayValue?[safe: 1]?["matches"]?.arrayValue?[safe: 0]?["version"] == 2, "the newest version with the field")
        #expect(try Self.names(Self.search(owner, "field:flightnumber")).count == 3, "attributes fields too")

        // Terms AND together.
        #expect(try Self.names(Self.search(owner, "status field:platform")) == ["TrainStatus"])
        #expect(try Self.names(Self.search(owner, "status label:team=logistics")) == [])

        // A deleted version's fields are gone from search.
        #expect(try owner.request("DELETE", "/api/live_activity_schemas/FlightStatus/1?application=\(owner.code)").status == 200)
        #expect(try Self.names(Self.search(owner, "field:terminal")) == [])
        // LIKE's wildcards match only themselves.
        #expect(try Self.names(Self.search(owner, "Fl%us")) == [])
    }

    @Test func resultsComeInByteOrderAndPage() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let names = ["Zed", "alpha", "Beta", "Émile", "Ωmega", "_under"].map { "Paged\($0)" }
        for name in names { #expect(try owner.publish(name, Self.schema("seat")).status == 200) }
        let expected = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var seen: [String] = []
        var token = ""
        var pages = 0
        repeat {
            let page = try Self.search(owner, "paged", extra: "&page_size=4&page_token=\(token)")
            #expect(page.status == 200, "\(page.bodyText)")
            seen += try Self.names(page)
            token = try page.json()["next_page_token"]?.stringValue ?? ""
            pages += 1
        } while !token.isEmpty && pages < 10
        #expect(seen == expected && pages == 2)
    }

    @Test func malformedQueriesAreA400NamingQ() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let refused: [(String, String)] = [
            ("", "q: is required"),
            ("a", "shorter than 2 characters"),
            ("field:x", "shorter than 2 characters"),
            ("label:team", "must be label:key=value"),
            ("label:Team=x", "q: label key"),
            (Array(repeating: "word", count: 9).joined(separator: " "), "q: at most 8 terms"),
            (String(repeating: "w", count: 513), "q: at most 512 bytes"),
        ]
        for (query, message) in refused {
            try expectError(try Self.search(owner, query), status: 400, code: 3, mentioning: message)
        }
        try expectError(try Self.search(owner, "word", extra: "&page_token=nope"), status: 400, code: 3, mentioning: "pageToken")
        #expect(refused.count == 7)
    }
}

extension String {
    /// Percent-encoded for a query value: everything but unreserved characters.
    func addingPercentEncodingForQuery() -> String {
        var out = ""
        for byte in utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return out
    }

    private func leftPadded() -> String { count == 1 ? "0" + self : self }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
