import Registry
import RegistryPostgres
import Testing
import TestSupport

/// The earlier texts a publish is compared with: each distinct live text once, at its oldest
/// live version, read by the publish statement itself (and by the dry run's read).
@Suite struct EarlierSchemasTests {
    static let a = #"{"type":"object","properties":{"a":{"type":"string"}}}"#
    static let b = #"{"type":"object","properties":{"b":{"type":"string"}}}"#
    static let c = #"{"type":"object","properties":{"c":{"type":"string"}}}"#

    /// Inserts `count` versions of one text after the type's highest, in one statement (as
    /// a long-lived type would have accumulated them).
    static let bulkVersions = PGStatement(
        "test_bulk_versions",
        """
        WITH counter AS (
            INSERT INTO schema_version_counters (application_id, attributes_type, last_version)
            VALUES ($1::bigint, $2::text, $3::integer)
            ON CONFLICT (application_id, attributes_type) DO UPDATE SET last_version = schema_version_counters.last_version + $3::integer
            RETURNING last_version
        )
        INSERT INTO schema_versions (application_id, attributes_type, version, json_schema)
        SELECT $1::bigint, $2::text, version, $4::text
        FROM counter, generate_series(last_version - $3::integer + 1, last_version) AS version
        """)

    func bulk(_ f: Fixture, _ type: String, _ count: Int32, _ text: String) throws {
        try f.pool.withConnection { connection in
            _ = try connection.execute(Self.bulkVersions, [f.application.id, type, count, text])
        }
    }

    func earlier(_ publication: Publication) -> [Int32: String] {
        Dictionary(uniqueKeysWithValues: publication.earlier.map { ($0.version, $0.jsonSchema ?? "(not read)") })
    }

    @Test func thousandsOfIdenticalVersionsPlusAFewDistinctOnesAreEachReturnedOnce() async throws {
        let f = try Fixture()
        try await f.publish("Busy", .nextFree, Self.a)
        try bulk(f, "Busy", 5_000, Self.b)
        try await f.publish("Busy", .nextFree, Self.a)
        try bulk(f, "Busy", 3_000, Self.a)
        let publication = try await f.publication("Busy", .nextFree, Self.c)
        #expect(publication.schema.version == 8_003)
        #expect(publication.earlier.map(\.version) == [1, 2])
        #expect(earlier(publication) == [1: Self.a, 2: Self.b])
        let read = try await f.basis("Busy").earlier
        #expect(read.map(\.version) == [1, 2, 8_003])
    }

    @Test func theTextBeingPublishedIsNotAmongTheEarlierOnes() async throws {
        let f = try Fixture()
        try await f.publish("Same", .nextFree, Self.a)
        try await f.publish("Same", .nextFree, Self.b)
        let publication = try await f.publication("Same", .nextFree, Self.a)
        #expect(earlier(publication) == [2: Self.b])
    }

    @Test func firstVersionHasNothingEarlier() async throws {
        let f = try Fixture()
        let publication = try await f.publication("New", .nextFree, Self.a)
        #expect(publication.schema.version == 1)
        #expect(publication.earlier.isEmpty)
    }

    @Test func deletedVersionsAreExcludedAndATextKeepsItsOldestLiveVersion() async throws {
        let f = try Fixture()
        try await f.publish("Gone", .nextFree, Self.a)
        try await f.publish("Gone", .nextFree, Self.b)
        try await f.publish("Gone", .nextFree, Self.a)
        #expect(try await f.store.delete(application: f.application, attributesType: "Gone", version: 1, by: .cli))
        #expect(try await f.store.delete(application: f.application, attributesType: "Gone", version: 2, by: .cli))
        let publication = try await f.publication("Gone", .nextFree, Self.c)
        #expect(earlier(publication) == [3: Self.a])
        #expect(try await f.basis("Gone").earlier.map(\.version) == [3, 4])
    }

    @Test func explicitVersionIsComparedOnlyWithLowerVersions() async throws {
        let f = try Fixture()
        try await f.publish("Gap", .explicit(2), Self.a)
        try await f.publish("Gap", .explicit(9), Self.b)
        try await f.publish("Gap", .explicit(12), Self.a)
        let publication = try await f.publication("Gap", .explicit(5), Self.c)
        #expect(publication.schema.version == 5)
        #expect(earlier(publication) == [2: Self.a])
    }

    @Test func otherTypesAndApplicationsAreNotEarlier() async throws {
        let f = try Fixture()
        try await f.publish("Mine", .nextFree, Self.a)
        try await f.publish("Other", .nextFree, Self.b)
        let other = try Fixture.makeApplication(admin: f.admin, store: f.store, accountID: f.accountID)
        _ = try await f.publication("Mine", .nextFree, Self.c, in: other)
        let publication = try await f.publication("Mine", .nextFree, Self.b)
        #expect(earlier(publication) == [1: Self.a])
    }

    @Test func contentHashIsTheSHA256OfTheTextBytes() async throws {
        let f = try Fixture()
        let text = "{\"type\":\"object\",\"title\":\"Gate \u{00FC} \u{2708}\u{FE0F}\"}"
        try await f.publish("Hash", .nextFree, text)
        let publication = try await f.publication("Hash", .nextFree, Self.a)
        #expect(publication.earlier.map(\.contentHash) == [SHA256.hash(text.utf8)])
        #expect(try await f.basis("Hash").earlier.map(\.contentHash)
            == [SHA256.hash(text.utf8), SHA256.hash(Self.a.utf8)])
    }

    @Test func thePublishStatementIsNotPlannedAgainOnEveryCall() async throws {
        let f = try Fixture(poolSize: 1)
        for index in 0..<8 { try await f.publish("Plan\(index % 3)", .nextFree, index % 2 == 0 ? Self.a : Self.b) }
        let plans = PGStatement(
            "test_publish_plans", "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1::text")
        let row = try f.pool.withConnection { try $0.execute(plans, ["store_publish_next_free"]).rows[0] }
        #expect(row.values == ["8", "0"])
    }

    @Test func aResponseThatThrowsWritesNothing() async throws {
        let f = try Fixture()
        try await f.publish("Veto", .nextFree, Self.a)
        await #expect(throws: RegistryError.alreadyExists("vetoed")) {
            try await f.store.publish(
                application: f.application, attributesType: "Veto", version: .nextFree, jsonSchema: Self.b, by: .cli,
                comparing: Comparison(limit: 100), once: nil,
                response: { publication in
                    #expect(publication.schema.version == 2)
                    throw RegistryError.alreadyExists("vetoed")
                })
        }
        #expect(try await f.store.list(application: f.application, attributesType: "Veto", after: nil, limit: nil).map(\.version) == [1])
        #expect(try await f.publish("Veto", .nextFree, Self.b).version == 2)
    }

    @Test func aTransactionalPublishReturnsTheEarlierTextsToo() async throws {
        let f = try Fixture()
        try await f.publish("Tx", .nextFree, Self.a)
        var seen: [EarlierSchema] = []
        let outcome = try await f.store.publish(
            application: f.application, attributesType: "Tx", version: .nextFree, jsonSchema: Self.b, by: .cli,
            comparing: Comparison(limit: 100), once: nil,
            response: { publication in
                seen = publication.earlier
                return PublishAnswer(body: Array("ok".utf8), auditDetails: [:])
            })
        guard case .published(let schema, let body) = outcome else { Issue.record("not published: \(outcome)"); return }
        #expect(schema.version == 2)
        #expect(body == Array("ok".utf8))
        #expect(seen.map(\.version) == [1])
    }
}
