import Registry
import RegistryPostgres
import Testing
import TestSupport

@Suite struct SchemaStoreTests {
    @Test func publishGetListDeleteRoundTrip() async throws {
        let f = try Fixture()
        let published = try await f.publish("FlightAttributes", .nextFree, #"{"type":"object","properties":{}}"#)
        #expect(published.version == 1)
        #expect(published.applicationCode == f.application.code)
        #expect(published.attributesType == "FlightAttributes")

        let fetched = try #require(try await f.store.schema(application: f.application, attributesType: "FlightAttributes", version: 1))
        #expect(fetched == published)
        #expect(try await f.store.list(application: f.application, attributesType: nil, after: nil, limit: nil) == [published])

        #expect(try await f.store.delete(application: f.application, attributesType: "FlightAttributes", version: 1, by: .cli))
        #expect(try await f.store.schema(application: f.application, attributesType: "FlightAttributes", version: 1) == nil)
        #expect(try await f.store.list(application: f.application, attributesType: nil, after: nil, limit: nil).isEmpty)
        #expect(try await !f.store.delete(application: f.application, attributesType: "FlightAttributes", version: 1, by: .cli))
    }

    @Test func jsonSchemaIsStoredByteForByte() async throws {
        let f = try Fixture()
        let schemas = [
            "{\"type\":\"object\",\"title\":\"Flug \u{00FC}ber M\u{00FC}nchen \u{2708}\u{FE0F} \u{1F6EB}\"}",
            "  {\n\t\"type\" :   \"object\" ,\r\n \"description\": \"e\u{0301} vs \u{00E9}\"  }\n\n",
            "{\"type\":\"object\",\"x\":\"\\u0000 escaped, \\\" quoted, \\\\ backslash\",\"y\":\"\u{10FFFF}\"}",
            "{\"type\":\"object\",\"z\":\"" + String(repeating: "\u{0627}\u{0644}", count: 2000) + "\"}",
        ]
        for (index, schema) in schemas.enumerated() {
            let type = "T\(index)"
            let published = try await f.publish(type, .nextFree, schema)
            let fetched = try #require(try await f.store.schema(application: f.application, attributesType: type, version: published.version))
            // Compare bytes: String == would accept canonically equivalent text.
            #expect(Array(fetched.jsonSchema.utf8) == Array(schema.utf8))
            let listed = try await f.store.list(application: f.application, attributesType: type, after: nil, limit: nil)
            #expect(listed.map { Array($0.jsonSchema.utf8) } == [Array(schema.utf8)])
        }
    }

    @Test func nextFreeVersionStartsAtOneAndCounts() async throws {
        let f = try Fixture()
        #expect(try await f.publish("A").version == 1)
        #expect(try await f.publish("A").version == 2)
        #expect(try await f.publish("B").version == 1)
        #expect(try await f.publish("A").version == 3)
    }

    @Test func versionsAreNeverReusedAfterDelete() async throws {
        let f = try Fixture()
        for _ in 1...3 { try await f.publish("A") }
        #expect(try await f.store.delete(application: f.application, attributesType: "A", version: 3, by: .cli))
        #expect(try await f.publish("A").version == 4)

        await #expect(throws: RegistryError.alreadyExists("attributesType \"A\" version 3 already exists")) {
            try await f.publish("A", .explicit(3))
        }
        #expect(try await f.store.schema(application: f.application, attributesType: "A", version: 3) == nil)
        // Deleting every version still leaves the numbers taken.
        for version: Int32 in [1, 2, 4] {
            #expect(try await f.store.delete(application: f.application, attributesType: "A", version: version, by: .cli))
        }
        #expect(try await f.publish("A").version == 5)
        let error = try await #require(throws: RegistryError.self) { try await f.publish("A", .explicit(1)) }
        #expect(error.code == .alreadyExists)
    }

    @Test func explicitRepublishOfLiveVersionIsAlreadyExists() async throws {
        let f = try Fixture()
        try await f.publish("A", .explicit(1))
        await #expect(throws: RegistryError.alreadyExists("attributesType \"A\" version 1 already exists")) {
            try await f.publish("A", .explicit(1), #"{"type":"object","other":true}"#)
        }
        #expect(try await f.store.schema(application: f.application, attributesType: "A", version: 1)?.jsonSchema == #"{"type":"object"}"#)
    }

    @Test func gapsAreAllowed() async throws {
        let f = try Fixture()
        #expect(try await f.publish("A", .explicit(5)).version == 5)
        #expect(try await f.publish("A").version == 6)
        #expect(try await f.publish("A", .explicit(3)).version == 3)
        #expect(try await f.publish("A").version == 7)
        let versions = try await f.store.list(application: f.application, attributesType: "A", after: nil, limit: nil).map(\.version)
        #expect(versions == [7, 6, 5, 3])
    }

    @Test func versionCeilingLeavesNoFreeVersion() async throws {
        let f = try Fixture()
        #expect(try await f.publish("A", .explicit(Int32.max)).version == Int32.max)
        await #expect(throws: RegistryError.invalidArgument("no version is free for attributesType \"A\"")) {
            try await f.publish("A")
        }
        // Lower explicit versions are still free.
        #expect(try await f.publish("A", .explicit(1)).version == 1)
        #expect(try await f.publish("B").version == 1)
    }

    @Test func explicitVersionBelowOneIsInvalidArgument() async throws {
        let f = try Fixture()
        for version: Int32 in [0, -1, Int32.min] {
            let error = try await #require(throws: RegistryError.self) { try await f.publish("A", .explicit(version)) }
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func listOrderIsTypeByteOrderThenNewestVersionFirst() async throws {
        let f = try Fixture()
        // Byte order: "B" (0x42) < "Z" < "a" (0x61) < "ab" < "é" (0xC3 0xA9); a linguistic
        // collation would put "a" before "B".
        for type in ["é", "a", "B", "ab", "Z"] {
            try await f.publish(type)
            try await f.publish(type)
        }
        try await f.publish("a", .explicit(10))
        let listed = try await f.store.list(application: f.application, attributesType: nil, after: nil, limit: nil)
        let pairs = listed.map { "\($0.attributesType)/\($0.version)" }
        #expect(pairs == ["B/2", "B/1", "Z/2", "Z/1", "a/10", "a/2", "a/1", "ab/2", "ab/1", "é/2", "é/1"])
    }

    @Test func pagingWithCursorVisitsEveryVersionOnce() async throws {
        let f = try Fixture()
        for type in ["C", "A", "B"] {
            for _ in 1...5 { try await f.publish(type) }
        }
        #expect(try await f.store.delete(application: f.application, attributesType: "B", version: 3, by: .cli))
        let everything = try await f.store.list(application: f.application, attributesType: nil, after: nil, limit: nil)
        #expect(everything.count == 14)

        for pageSize in [1, 2, 3, 5, 14, 100] {
            for type in [nil, "B"] as [String?] {
                var cursor: ListCursor?
                var collected: [SchemaVersion] = []
                while true {
                    let page = try await f.store.list(application: f.application, attributesType: type, after: cursor, limit: pageSize)
                    #expect(page.count <= pageSize)
                    collected += page
                    guard page.count == pageSize, let last = page.last else { break }
                    cursor = ListCursor(attributesType: last.attributesType, version: last.version)
                }
                #expect(collected == everything.filter { type == nil || $0.attributesType == type })
            }
        }
        // A cursor on a type filter starting before that type returns the whole type.
        let fromStart = try await f.store.list(
            application: f.application, attributesType: "B", after: ListCursor(attributesType: "A", version: 1), limit: nil)
        #expect(fromStart.map(\.version) == [5, 4, 2, 1])
        let pastIt = try await f.store.list(
            application: f.application, attributesType: "B", after: ListCursor(attributesType: "C", version: 9), limit: nil)
        #expect(pastIt.isEmpty)
    }

    @Test func listFiltersByTypeAndSkipsDeletedVersions() async throws {
        let f = try Fixture()
        try await f.publish("A")
        try await f.publish("A")
        try await f.publish("AB")
        #expect(try await f.store.delete(application: f.application, attributesType: "A", version: 2, by: .cli))
        let listed = try await f.store.list(application: f.application, attributesType: "A", after: nil, limit: nil)
        #expect(listed.map(\.version) == [1])
        #expect(try await f.store.list(application: f.application, attributesType: "missing", after: nil, limit: nil).isEmpty)
        #expect(try await f.store.list(application: f.application, attributesType: nil, after: nil, limit: 0).isEmpty)
    }

    @Test func timestampsAreRFC3339InUTC() async throws {
        let f = try Fixture()
        let published = try await f.publish("A")
        #expect(published.created.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
        #expect(f.application.created.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
        let fetched = try #require(try await f.store.schema(application: f.application, attributesType: "A", version: 1))
        #expect(fetched.created == published.created)
    }

    @Test func applicationsKeepSeparateVersionsAndLists() async throws {
        let f = try Fixture()
        let other = try Fixture.makeApplication(admin: f.admin, store: f.store, accountID: f.accountID)
        try await f.publish("A")
        try await f.publish("A")
        let first = try await f.publication("A", .nextFree, "{}", in: other).schema
        #expect(first.version == 1)
        #expect(first.applicationCode == other.code)
        #expect(try await f.store.list(application: other, attributesType: nil, after: nil, limit: nil).map(\.version) == [1])
        #expect(try await f.store.schema(application: other, attributesType: "A", version: 2) == nil)
    }

    @Test func unknownApplicationCodeAndVersionAreNil() async throws {
        let f = try Fixture()
        #expect(try await f.store.application(code: "NOPE0-NOPE0") == nil)
        #expect(try await f.store.schema(application: f.application, attributesType: "A", version: 1) == nil)
        #expect(try await !f.store.delete(application: f.application, attributesType: "A", version: 1, by: .cli))
    }

    @Test func textWithNULIsInvalidArgument() async throws {
        let f = try Fixture()
        let error = try await #require(throws: RegistryError.self) { try await f.publish("A", .nextFree, "{\u{0}}") }
        #expect(error.code == .invalidArgument)
    }
}
