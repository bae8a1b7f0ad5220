import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// The service computes a version's content identity itself (`CanonicalJSON`), the database
/// computes it for rows inserted without it (`registry_canonical_json`, migration 0007): both
/// must give the same hash for every JSON text, or lookups would miss.
@Suite struct ContentIdentityAgreementTests {
    static let hashInDatabase = PGStatement(
        "test_canonical_hash", "SELECT registry_text_sha256(registry_canonical_json($1::text))")

    /// Valid JSON texts: JSONTestSuite's `y_` files that PostgreSQL text can hold (UTF-8, no
    /// NUL), each also re-spaced, plus escapes and whitespace in the places a regex gets wrong.
    static func corpus() -> [String] {
        let dir = TestPaths.shared.appendingPathComponent("data/JSONTestSuite/test_parsing")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
            $0.hasPrefix("y_") && $0.hasSuffix(".json")
        }.sorted()
        var texts: [String] = []
        for name in names {
            guard let data = try? Data(contentsOf: dir.appendingPathComponent(name)), !data.contains(0),
                let text = String(validating: [UInt8](data), as: UTF8.self)
            else { continue }
            texts.append(text)
            if let value = try? JSONParser.parse(text) { texts.append(JSONPrettyWriter.string(value)) }
        }
        texts += [
            #"{"a\"b" : "c\\" , "d":"\\\\\" e"}"#,
            "{\"tab\\tin\" :\t\"x\\n\\r\" }",
            #"[ "\u0022" , "\ud83d\ude00" , "😀 " ]"#,
            "{\"\u{2028}\" : \"\u{3000}\" }",
            #"{ "n" : [ 0 , -0.0e+00 , 1E-7 , 123456789012345678901234567890 ] }"#,
            #"{ "" : "" , "\/" : "/" }"#,
        ]
        return texts
    }

    @Test func theServiceAndTheDatabaseAgreeOnEveryCanonicalHash() throws {
        let fixture = try Fixture()
        defer { fixture.pool.close() }
        let texts = Self.corpus()
        var checked = 0
        try fixture.pool.withConnection { connection in
            for text in texts {
                let inDatabase = try connection.execute(Self.hashInDatabase, [text]).rows.first?.bytea(0)
                #expect(inDatabase == CanonicalJSON.contentHash(text), "\(text.prefix(80))")
                checked += 1
            }
        }
        #expect(checked >= 180, "only \(checked) texts compared: is the JSONTestSuite corpus missing?")
    }

    @Test func aPublishStoresTheSameHashTheTriggerWouldHaveComputed() async throws {
        let fixture = try Fixture()
        defer { fixture.pool.close() }
        try await fixture.publish("Spaced", .nextFree, "{ \"type\" : \"object\" ,\n \"title\": \"a  b\" }")
        let same = try fixture.pool.withConnection { connection in
            try connection.simpleQuery(
                "SELECT content_sha256 = registry_text_sha256(registry_canonical_json(json_schema)) FROM schema_versions"
            ).rows.first?.bool(0)
        }
        #expect(same == true)
    }
}
