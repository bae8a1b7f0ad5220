import Registry
import RegistryPostgres
import Testing
import TestSupport

/// A publish writes its version's field paths in the statement that inserts the version, and
/// rewrites the version's row afterwards only to store warnings.
@Suite struct PublishWritesFieldsTests {
    static let text = #"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}"#

    /// The command (within its transaction) that wrote the live row of the version and of its
    /// counter, its field paths, and whether it counts as indexed. The publish statement writes
    /// the counter, so a version row written by a later command was rewritten after its insert.
    static let written = PGStatement(
        "test_publish_written",
        """
        SELECT v.cmin::text, c.cmin::text, v.fields_indexed::text, v.warnings::text,
               (SELECT string_agg(f.path || '@' || f.cmin::text, ',' ORDER BY f.path) FROM version_fields AS f
                WHERE f.application_id = v.application_id AND f.attributes_type = v.attributes_type AND f.version = v.version)
        FROM schema_versions AS v JOIN schema_version_counters AS c USING (application_id, attributes_type)
        WHERE v.application_id = $1::bigint AND v.attributes_type = $2::text AND v.version = 1
        """)

    func publish(_ f: Fixture, _ type: String, fieldPaths: [String]?, warnings: [JSONValue]) throws -> [String?] {
        _ = try f.store.publish(
            application: f.application, attributesType: type, version: .nextFree, jsonSchema: Self.text, by: .cli,
            fieldPaths: fieldPaths, comparing: Comparison(limit: 100), once: nil,
            response: { _ in PublishAnswer(body: [], auditDetails: [:], warnings: warnings) })
        return try f.pool.withConnection { try $0.execute(Self.written, [f.application.id, type]).rows[0].values }
    }

    @Test func fieldPathsAreWrittenByTheInsertAndAnAnswerWithoutWarningsRewritesNothing() throws {
        let f = try Fixture()
        let row = try publish(f, "Quiet", fieldPaths: ["b", "a"], warnings: [])
        #expect(row[0] == row[1], "the version's row was rewritten after its insert")
        #expect(row[2] == "true" && row[3] == "[]")
        #expect(row[4] == "a@\(row[1]!),b@\(row[1]!)")
    }

    @Test func warningsAreStoredAfterTheInsert() throws {
        let f = try Fixture()
        let row = try publish(f, "Warned", fieldPaths: ["a"], warnings: ["careful"])
        #expect(row[0] != row[1])
        #expect(row[2] == "true" && row[3] == #"["careful"]"#)
    }

    @Test func withoutFieldPathsTheVersionIsLeftToTheBackfill() throws {
        let f = try Fixture()
        let row = try publish(f, "Later", fieldPaths: nil, warnings: [])
        #expect(row[2] == "false" && row[4] == nil)
    }
}
