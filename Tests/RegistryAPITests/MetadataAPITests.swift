import Foundation
import Registry
import RegistryAPI
import RegistryPostgres
import Testing
import TestSupport

/// Type and version metadata over HTTP against PostgreSQL: every limit is a 400 naming its
/// field, each change writes one audit event and one feed event, versions show their labels,
/// release notes and stored warnings on every later read, and the tag changes with them.
@Suite struct MetadataAPITests {
    static let flight = SchemaAPITests.flight

    static func put(_ tenant: Tenant, _ type: String, _ body: JSONValue) throws -> RawHTTPResponse {
        try tenant.request("PUT", "/api/live_activity_types/\(type)/metadata?application=\(tenant.code)", body: JSONWriter.string(body))
    }

    static func putVersion(_ tenant: Tenant, _ type: String, _ version: Int, _ body: JSONValue) throws -> RawHTTPResponse {
        try tenant.request(
            "PUT", "/api/live_activity_schemas/\(type)/\(version)/metadata?application=\(tenant.code)", body: JSONWriter.string(body))
    }

    /// The tenant's feed from the start, once it holds at least `count` events: an event is
    /// handed out only when every older transaction of the database has ended, so under a full
    /// parallel test run it may lag by seconds.
    static func feed(_ tenant: Tenant, atLeast count: Int = 0) throws -> [JSONValue] {
        try eventually(seconds: 60, {
            try tenant.request("GET", "/api/changes?application=\(tenant.code)&pageSize=500").json()["events"]?.arrayValue ?? []
        }, until: { $0.count >= count })
    }

    @Test func typeMetadataIsReplacedWholeAuditedAndInTheFeed() async throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        #expect(try owner.publish("Described", Self.flight).status == 200)

        let empty = try owner.request("GET", "/api/live_activity_types/Described/metadata?application=\(owner.code)")
        #expect(empty.status == 200, "\(empty.bodyText)")
        #expect(try empty.json()["metadata"]?["description"] == "" && empty.json()["metadata"]?["labels"] == [:])

        let before = try await AuditAPITests.events(registry, owner).count
        let feedBefore = try Self.feed(owner, atLeast: 1).count
        let body: JSONValue = [
            "description": "Flight status\non the lock screen", "owner": "team-checkout@example.com",
            "labels": ["team": "checkout", "tier": "1"], "links": [["name": "repository", "url": "https://example.com/flights"]],
        ]
        let set = try Self.put(owner, "Described", body)
        #expect(set.status == 200, "\(set.bodyText)")
        let stored = try #require(try set.json()["metadata"])
        #expect(stored["owner"] == "team-checkout@example.com" && stored["labels"] == ["team": "checkout", "tier": "1"])
        #expect(stored["links"]?.arrayValue?.first?["url"] == "https://example.com/flights" && stored["updated"] != nil)
        #expect(try owner.request("GET", "/api/live_activity_types/Described/metadata?application=\(owner.code)").json()["metadata"] == stored)

        let events = try await AuditAPITests.events(registry, owner)
        #expect(events.count == before + 1)
        let event = try #require(events.last)
        #expect(event.action == .metadataChange && event.attributesType == "Described" && event.version == nil)
        #expect(event.details["metadata"]?["owner"] == "team-checkout@example.com")
        let feed = try Self.feed(owner, atLeast: feedBefore + 1)
        #expect(feed.count == feedBefore + 1)
        #expect(feed.last?["kind"] == "metadata_changed" && feed.last?["attributes_type"] == "Described" && feed.last?["version"] == .null)

        // The type index shows the description, owner and labels.
        let index = try owner.request("GET", "/api/live_activity_types?application=\(owner.code)").json()["types"]?.arrayValue ?? []
        let summary = try #require(index.first { $0["attributes_type"] == "Described" })
        #expect(summary["owner"] == "team-checkout@example.com" && summary["labels"]?["team"] == "checkout")

        // A PUT replaces everything: what it leaves out is cleared.
        let replaced = try Self.put(owner, "Described", ["owner": "team-flights"])
        #expect(try replaced.json()["metadata"]?["description"] == "" && replaced.json()["metadata"]?["labels"] == [:])

        // No live version: 404, and nothing recorded.
        let count = try await AuditAPITests.events(registry, owner).count
        try expectError(try Self.put(owner, "Unknown", ["owner": "x"]), status: 404, code: 5, mentioning: "has no live version")
        try expectError(
            try owner.request("GET", "/api/live_activity_types/Unknown/metadata?application=\(owner.code)"), status: 404, code: 5)
        await #expect(try AuditAPITests.events(registry, owner).count == count)
    }

    /// Each limit, one past it: a 400 naming the field; at the limit, accepted.
    @Test func everyMetadataLimitIsA400NamingTheField() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        #expect(try owner.publish("Bounded", Self.flight).status == 200)
        let manyLabels = { (count: Int) -> JSONValue in .object(JSONObject((0..<count).map { (key: "k\($0)", value: JSONValue.string("v")) })) }
        let link: JSONValue = ["name": "n", "url": "https://example.com"]
        let refused: [(JSONValue, String)] = [
            (["description": .string(String(repeating: "d", count: 4097))], "description: at most 4096 bytes"),
            (["owner": .string(String(repeating: "o", count: 257))], "owner: at most 256 bytes"),
            (["owner": "a\nb"], "owner: must not contain control characters"),
            (["labels": manyLabels(33)], "labels: at most 32 labels"),
            (["labels": ["Team": "x"]], "labels: label key \"Team\""),
            (["labels": [.init(stringLiteral: String(repeating: "k", count: 64)): "x"]], "labels: label key"),
            (["labels": ["team": .string(String(repeating: "v", count: 257))]], "labels.team: at most 256 bytes"),
            (["labels": ["team": 3]], "labels.team: must be a string"),
            (["labels": ["a", "b"]], "labels: must be an object"),
            (["links": .array(Array(repeating: link, count: 9))], "links: at most 8 links"),
            (["links": [["name": "n", "url": "ftp://example.com"]]], "links[0].url: must be an http:// or https:// URL"),
            (["links": ["https://example.com"]], "links[0]: must be an object"),
            (["description": 7], "description: must be a string"),
        ]
        for (body, message) in refused {
            try expectError(try Self.put(owner, "Bounded", body), status: 400, code: 3, mentioning: message)
        }
        let atLimits: JSONValue = [
            "description": .string(String(repeating: "d", count: 4096)), "owner": .string(String(repeating: "o", count: 256)),
            "labels": manyLabels(32), "links": .array(Array(repeating: link, count: 8)),
        ]
        #expect(try Self.put(owner, "Bounded", atLimits).status == 200)
        #expect(try Self.put(owner, "Bounded", ["labels": [.init(stringLiteral: String(repeating: "k", count: 63)): "x"]]).status == 200)

        try expectError(
            try Self.putVersion(owner, "Bounded", 1, ["release_notes": .string(String(repeating: "n", count: 8193))]), status: 400, code: 3,
            mentioning: "release_notes: at most 8192 bytes")
        try expectError(try Self.putVersion(owner, "Bounded", 1, ["labels": manyLabels(33)]), status: 400, code: 3, mentioning: "labels: at most 32")
        try expectError(
            try Self.putVersion(owner, "Bounded", 1, ["releaseNotes": "a", "release_notes": "b"]), status: 400, code: 3,
            mentioning: "given as both")
        #expect(try Self.putVersion(owner, "Bounded", 1, ["release_notes": .string(String(repeating: "n", count: 8192))]).status == 200)
        #expect(refused.count == 13)
    }

    @Test func versionMetadataIsShownEverywhereAuditedFedAndChangesTheTag() async throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        #expect(try owner.publish("Released", Self.flight).status == 200)
        let path = "/api/live_activity_schemas/Released/1?application=\(owner.code)"
        let first = try owner.request("GET", path)
        let tag = try #require(first.header("ETag"))
        #expect(try first.json()["schema"]?["labels"] == nil)

        let before = try await AuditAPITests.events(registry, owner).count
        let set = try Self.putVersion(owner, "Released", 1, ["labels": ["app_version": "2.3.1"], "release_notes": "Gate banner"])
        #expect(set.status == 200, "\(set.bodyText)")
        #expect(try set.json()["schema"]?["labels"] == ["app_version": "2.3.1"])

        // The cached body and its tag are forgotten: the next read shows the labels with a new tag.
        let second = try owner.request("GET", path, headers: [("If-None-Match", tag)])
        #expect(second.status == 200)
        #expect(try second.json()["schema"]?["release_notes"] == "Gate banner")
        #expect(second.header("ETag") != tag)
        let latest = try owner.request("GET", "/api/live_activity_schemas/Released/latest?application=\(owner.code)")
        #expect(try latest.json()["schema"]?["labels"]?["app_version"] == "2.3.1")
        #expect(try owner.list(query: "&attributesType=Released").first?["release_notes"] == "Gate banner")

        let event = try await #require(try AuditAPITests.events(registry, owner).dropFirst(before).first)
        #expect(event.action == .metadataChange && event.version == 1 && event.details["labels"]?["app_version"] == "2.3.1")
        let feed = try Self.feed(owner, atLeast: 2)
        #expect(feed.last?["kind"] == "metadata_changed" && feed.last?["version"] == 1)

        try expectError(try Self.putVersion(owner, "Released", 9, ["labels": [:]]), status: 404, code: 5)
    }

    @Test func publishStoresLabelsNotesAndWarningsForLaterReaders() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let published = try owner.post([
            "application": .string(owner.code), "attributesType": "Warned", "jsonSchema": .string(SchemaWarningsAPITests.typo),
            "labels": ["app_version": "2.3.1"], "release_notes": "First build",
        ])
        #expect(published.status == 200, "\(published.bodyText)")
        let answered = try #require(try published.json()["warnings"]?.arrayValue)
        #expect(answered.count == 2)
        #expect(try published.json()["schema"]?["warnings"]?.arrayValue?.count == 2)

        let got = try owner.request("GET", "/api/live_activity_schemas/Warned/1?application=\(owner.code)").json()["schema"]
        #expect(got?["labels"] == ["app_version": "2.3.1"] && got?["release_notes"] == "First build")
        #expect(got?["warnings"]?.arrayValue?.map { $0["path"] } == answered.map { $0["path"] })
        #expect(got?["warnings"]?.arrayValue?.first?["message"] == answered.first?["message"])

        // Without warnings, the version shows none.
        #expect(try owner.publish("Clean", Self.flight).status == 200)
        #expect(try owner.request("GET", "/api/live_activity_schemas/Clean/1?application=\(owner.code)").json()["schema"]?["warnings"] == nil)

        try expectError(
            try owner.post(["application": .string(owner.code), "attributesType": "Warned", "jsonSchema": .string(Self.flight), "labels": ["BAD": "x"]]),
            status: 400, code: 3, mentioning: "labels: label key")
    }

    @Test func exportAndImportKeepEveryKindOfMetadata() throws {
        let registry = try TestRegistry.shared()
        let source = try registry.makeTenant()
        #expect(try source.post([
            "application": .string(source.code), "attributesType": "Moved", "jsonSchema": .string(SchemaWarningsAPITests.typo),
            "labels": ["app_version": "1.0"], "release_notes": "Moved along",
        ]).status == 200)
        let typeMetadata: JSONValue = ["description": "Moves", "owner": "team-move", "labels": ["team": "move"], "links": [["name": "repo", "url": "https://example.com"]]]
        #expect(try Self.put(source, "Moved", typeMetadata).status == 200)
        let transfer = ApplicationTransfer(pool: registry.pool)
        let exported = try transfer.export(applicationCode: source.code)
        // Through its JSON, as `admin export` writes it and `admin import` reads it.
        let document = try ApplicationExport(json: exported.json)
        #expect(document == exported)

        let target = try registry.makeTenant()
        let outcome = try transfer.importing(document, intoApplicationCode: target.code, dryRun: false)
        #expect(outcome.versionsAdded == 1 && outcome.metadataChanged == 1 && outcome.conflicts.isEmpty)
        let version = try target.request("GET", "/api/live_activity_schemas/Moved/1?application=\(target.code)").json()["schema"]
        #expect(version?["labels"] == ["app_version": "1.0"] && version?["release_notes"] == "Moved along")
        #expect(version?["warnings"]?.arrayValue?.count == 2)
        let metadata = try target.request("GET", "/api/live_activity_types/Moved/metadata?application=\(target.code)").json()["metadata"]
        #expect(metadata?["owner"] == "team-move" && metadata?["links"]?.arrayValue?.count == 1 && metadata?["labels"] == ["team": "move"])
        // The imported version's fields are searchable at once.
        let found = try target.request("GET", "/api/search?application=\(target.code)&q=field:gate").json()["results"]?.arrayValue
        #expect(found?.count == 1)
        // Importing again changes nothing.
        #expect(try transfer.importing(document, intoApplicationCode: target.code, dryRun: false).changesAnything == false)
    }
}
