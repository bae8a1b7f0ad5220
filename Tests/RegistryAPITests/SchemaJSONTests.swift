@testable import RegistryAPI
import Registry
import Testing

/// Get and List write their bodies straight to bytes; they must be exactly what the value tree
/// (still used by Create) renders.
@Suite struct SchemaJSONTests {
    static let versions = [
        SchemaVersion(
            applicationCode: "AB12C-DE34F", attributesType: "FlightAttributes", version: 1,
            jsonSchema: #"{"type":"object","properties":{"gate":{"type":"string"}}}"#, created: "2026-09-01T10:00:00Z"),
        SchemaVersion(
            applicationCode: "AB12C-DE34F", attributesType: "Café_Ünïcode", version: 2_147_483_647,
            jsonSchema: "{\n  \"description\": \"quotes \\\" backslash \\\\ tab \\t é ✈️ \u{1F600}\",\n  \"type\": \"object\"\n}",
            created: "2026-09-01T10:00:00Z"),
        SchemaVersion(
            applicationCode: "AB12C-DE34F", attributesType: "Controls", version: 3,
            jsonSchema: "{\"x\":\"\u{01}\u{1F}\u{7F}</script>\"}", created: "2026-12-31T23:59:59Z"),
    ]

    @Test func getBodyIsWhatTheValueTreeRenders() {
        for version in Self.versions {
            #expect(SchemaJSON.getBody(version) == JSONResponse.body(["schema": SchemaJSON.object(version)]))
        }
    }

    @Test func listBodyIsWhatTheValueTreeRendersWithAndWithoutAPageToken() {
        for token in [nil, "djE6MjpGbGlnaHRBdHRyaWJ1dGVz"] as [String?] {
            for count in 0...Self.versions.count {
                let rows = Array(Self.versions.prefix(count))
                var tree: JSONObject = ["schemas": .array(rows.map(SchemaJSON.object))]
                if let token { tree["next_page_token"] = .string(token) }
                #expect(SchemaJSON.listBody(rows, nextPageToken: token) == JSONResponse.body(.object(tree)))
            }
        }
    }
}
