import Registry
import RegistryPostgres
import Testing
import TestSupport

/// A publish or an import writes its version's field paths in the statement that inserts the
/// version; a publish rewrites the version's row afterwards only to store warnings.
@Suite struct FieldPathsWrittenWithTheVersionTests {
    static let text = #"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}"#

    /// The command (within its transaction) that wrote the live row of the version and of its
    /// counter, its field paths, and whether it counts as indexed. The publish statement writes
    /// the counter, so a version row written by a later command was rewritten after its insert;
    /// an import writes the counter with the command before the version's insert.
    static let written = PGStatement(
        "test_publish_written",
        """
        SELECT v.cmin::text, c.cmin::text, v.fields_indexed::text, v.warnings::text,
               (SELECT string_agg(f.path || '@' || f.cmin::text, ',' ORDER BY f.path) FROM version_fields AS f
                WHERE f.application_id = v.application_id AND f.attributes_type = v.attributes_type AND f.version = v.version)
        FROM schema_versions AS v JOIN schema_version_counters AS c USING (application_id, attributes_type)
        WHERE v.application_id = $1::bigint AND v.attributes_type = $2::text AND v.version = 1
        """)

    func publish(_ f: Fixture, _ type: String, fieldPaths: [String]?, warnings: [JSONValue]) async throws -> [String?] {
        _ = try await f.store.publish(
            application: f.application, attributesType: type, version: .nextFree, jsonSchema: Self.text, by: .cli,
            fieldPaths: fieldPaths, comparing: Comparison(limit: 100), once: nil,
            response: { _ in PublishAnswer(body: [], auditDetails: [:], warnings: warnings) })
        return try f.pool.withConnection { try $0.execute(Self.written, [f.application.id, type]).rows[0].values }
    }

    @Test func fieldPathsAreWrittenByTheInsertAndAnAnswerWithoutWarningsRewritesNothing() async throws {
        let f = try Fixture()
        let row = try await publish(f, "Quiet", fieldPaths: ["b", "a"], warnings: [])
        #expect(row[0] == row[1], "the version's row was rewritten after its insert")
        #expect(row[2] == "true" && row[3] == "[]")
        #expect(row[4] == "a@\(row[1]!),b@\(row[1]!)")
    }

    @Test func warningsAreStoredAfterTheInsert() async throws {
        let f = try Fixture()
        let row = try await publish(f, "Warned", fieldPaths: ["a"], warnings: ["careful"])
        #expect(row[0] != row[1])
        #expect(row[2] == "true" && row[3] == #"["careful"]"#)
    }

    @Test func withoutFieldPathsTheVersionIsLeftToTheBackfill() async throws {
        let f = try Fixture()
        let row = try await publish(f, "Later", fieldPaths: nil, warnings: [])
        #expect(row[2] == "false" && row[4] == nil)
    }

    /// Counts every rewrite of a version's row in the test's own database.
    static let countRewrites = """
        CREATE TABLE test_version_rewrites (attributes_type text, version integer);
        CREATE FUNCTION test_note_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO test_version_rewrites VALUES (NEW.attributes_type, NEW.version); RETURN NEW; END $$;
        CREATE TRIGGER test_note_rewrite BEFORE UPDATE ON schema_versions FOR EACH ROW EXECUTE FUNCTION test_note_rewrite();
        """

    @Test func anImportWritesFieldPathsWithItsInsert() async throws {
        let f = try Fixture()
        _ = try await publish(f, "Moved", fieldPaths: ["b", "a"], warnings: [])
        let transfer = ApplicationTransfer(pool: f.pool)
        let exported = try transfer.export(applicationCode: f.application.code)
        _ = try f.pool.withConnection { try $0.simpleQuery(Self.countRewrites) }
        let target = try Fixture.makeApplication(admin: f.admin, store: f.store, accountID: f.accountID)
        #expect(try transfer.importing(exported, intoApplicationCode: target.code, dryRun: false).versionsAdded == 1)
        let rewrites = try f.pool.withConnection { try $0.simpleQuery("SELECT count(*)::text FROM test_version_rewrites") }
        #expect(rewrites.rows.first?.values.first == "0", "the imported version's row was rewritten after its insert")
        let row = try f.pool.withConnection { try $0.execute(Self.written, [target.id, "Moved"]).rows[0].values }
        #expect(row[2] == "true")
        let paths = try #require(row[4]).split(separator: ",")
        #expect(paths.count == 2 && paths.allSatisfy { $0.hasSuffix("@\(row[0]!)") }, "the field rows come from the version's insert")
    }
}
