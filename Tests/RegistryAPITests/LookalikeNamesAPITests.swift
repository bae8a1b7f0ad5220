import Registry
import RegistryAPI
import Testing
import TestSupport

/// Names that Swift's `String ==` calls equal or that only look alike are distinct types and
/// applications through every route and every cache, on two replicas of one database that
/// cache responses and lookups as production does.
@Suite struct LookalikeNamesAPITests {
    /// Look-alikes side by side: NFC and NFD, with and without a zero-width space, ASCII and
    /// full-width, ASCII and a Kelvin sign (canonically equivalent to `K`).
    static let names = ["Caf\u{E9}", "Cafe\u{301}", "Flight", "Fl\u{200B}ight", "\u{FF26}light", "Kelvin", "\u{212A}elvin"]
    /// Deleted midway, each right after its look-alike partner was read into the caches.
    static let deleted = [1, 3, 6]
    static let version = 7

    /// A schema that says which name it was published under, in its text and its one field.
    static func schema(_ index: Int) -> String {
        #"{"type":"object","description":"look-alike \#(index)","properties":{"field\#(index)":{"type":"string"}}}"#
    }

    static func versionPath(_ index: Int, _ tenant: Tenant, suffix: String = "") -> String {
        "/api/live_activity_schemas/\(AbuseAPITests.percentEncoded(names[index]))/\(version)\(suffix)?application=\(tenant.code)"
    }

    private static func replicas(lookupSeconds: Double = 60) throws -> (TestRegistry, TestRegistry) {
        let database = try TestPostgres.shared.makeDatabase()
        let caching = CacheSettings(responseBytes: 8 << 20, lookupSeconds: lookupSeconds)
        let a = try TestRegistry(databaseURL: database, caching: caching)
        do {
            return (a, try TestRegistry(databaseURL: database, caching: caching))
        } catch {
            a.stop()
            throw error
        }
    }

    @Test func lookAlikeTypesArePublishedReadListedCheckedAndDeletedEachAsItself() throws {
        let (a, b) = try Self.replicas()
        defer { a.stop(); b.stop() }
        let onA = try a.makeTenant()
        let onB = onA.on(port: b.port)
        for index in Self.names.indices {
            let published = try onA.publish(Self.names[index], Self.schema(index), version: Self.version)
            #expect(published.status == 200, "\(Self.names[index]): \(published.bodyText)")
        }
        // Every replica, twice each (the second read is a cache hit), serves each name its own.
        var checked = 0
        for tenant in [onA, onB, onA, onB] {
            for index in Self.names.indices {
                try expectServed(index, by: tenant)
                checked += 1
            }
        }
        for tenant in [onA, onB] {
            #expect(listed(try tenant.list()) == inByteOrder(Self.names))
            for index in Self.names.indices {
                let narrowed = try tenant.list(query: "&attributesType=\(AbuseAPITests.percentEncoded(Self.names[index]))")
                #expect(listed(narrowed) == [ExactName(Self.names[index])])
            }
        }

        for index in Self.deleted {
            let partner = index - 1
            try expectServed(partner, by: onA)
            #expect(try onA.request("DELETE", Self.versionPath(index, onA)).status == 200)
            try expectServed(partner, by: onA)
            try expectGone(index, from: onA)
            // The other replica learns of the delete from the change feed.
            try expectServed(partner, by: onB)
            #expect(waitUntilGone(index, from: onB), "replica B still serves \(Self.names[index])")
            try expectServed(partner, by: onB)
            try expectGone(index, from: onB)
            #expect(try onB.request("DELETE", Self.versionPath(index, onB)).status == 404)
        }
        let kept = Self.names.indices.filter { !Self.deleted.contains($0) }
        for tenant in [onA, onB] {
            for index in kept { try expectServed(index, by: tenant) }
            #expect(listed(try tenant.list()) == inByteOrder(kept.map { Self.names[$0] }))
        }
        #expect(checked == 4 * Self.names.count)
    }

    @Test func lookAlikeApplicationCodesAreTwoApplicationsThroughTheLookupCache() throws {
        let (a, b) = try Self.replicas()
        defer { a.stop(); b.stop() }
        let tenants = try ["Caf\u{E9}-app", "Cafe\u{301}-app", "Kelvin-app", "\u{212A}elvin-app"].map { code in
            try a.makeTenant(applicationCode: code)
        }
        for (index, tenant) in tenants.enumerated() {
            #expect(try tenant.publish("Owned", Self.schema(index)).status == 200)
        }
        for replica in [a, b, a, b] {
            for (index, tenant) in tenants.enumerated() {
                let onReplica = tenant.on(port: replica.port)
                let response = try onReplica.request(
                    "GET", "/api/live_activity_schemas?application=\(AbuseAPITests.percentEncoded(tenant.code))")
                #expect(response.status == 200, "\(tenant.code): \(response.bodyText)")
                let schemas = try response.json()["schemas"]?.arrayValue ?? []
                #expect(schemas.count == 1)
                #expect(schemas.first?["json_schema"]?.stringValue?.contains("look-alike \(index)\"") == true)
            }
        }
    }

    @Test func listPagesThroughTypeNamesThatStartWithACombiningMark() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let names = ["\u{301}A", "\u{301}B", "\u{301}C"]
        for name in names { #expect(try tenant.publish(name, Self.schema(0)).status == 200) }
        var seen: [String] = []
        var token: String?
        repeat {
            let query = "&pageSize=1" + (token.map { "&pageToken=\($0)" } ?? "")
            let response = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)\(query)")
            #expect(response.status == 200, "\(response.bodyText)")
            let body = try response.json()
            seen += (body["schemas"]?.arrayValue ?? []).compactMap { $0["attributes_type"]?.stringValue }
            token = body["next_page_token"]?.stringValue
        } while token != nil && seen.count <= names.count
        #expect(seen.map(ExactName.init) == inByteOrder(names))
    }

    @Test func validateWarnsAboutLookAlikeNamesWithoutRefusingThem() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let schema = #"{"type":"object","properties":{"Fl\u0456ght":{"type":"string"},"gate":{"type":"string"}}}"#
        let response = try tenant.post(
            ["application": .string(tenant.code), "attributesType": "Cafe\u{301}", "jsonSchema": .string(schema)],
            path: "/api/live_activity_schemas:validate")
        #expect(response.status == 200, "\(response.bodyText)")
        let warnings = try response.json()["warnings"]?.arrayValue ?? []
        let paths = warnings.compactMap { $0["path"]?.stringValue }.map(ExactName.init)
        #expect(paths == [ExactName("attributesType"), ExactName("jsonSchema.properties.Fl\u{456}ght")])
        #expect(warnings.first?["message"]?.stringValue?.contains("is not in Unicode NFC") == true)
        #expect(warnings.last?["message"]?.stringValue?.contains("mixes Latin and Cyrillic letters") == true)
        let plain = try tenant.post(
            ["application": .string(tenant.code), "attributesType": "Caf\u{E9}", "jsonSchema": .string(SchemaAPITests.flight)],
            path: "/api/live_activity_schemas:validate")
        #expect(plain.status == 200)
        #expect(try plain.json()["warnings"] == nil)
    }

    /// GET, the form, `:check` and `:preview` of `index` answer with its own schema.
    private func expectServed(_ index: Int, by tenant: Tenant, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let name = Self.names[index]
        let got = try tenant.request("GET", Self.versionPath(index, tenant))
        #expect(got.status == 200, "\(name): \(got.bodyText)", sourceLocation: sourceLocation)
        let schema = try got.json()["schema"]
        #expect(schema?["attributes_type"] == .string(name), sourceLocation: sourceLocation)
        #expect(schema?["json_schema"] == .string(Self.schema(index)), "\(name) served another type's schema", sourceLocation: sourceLocation)

        let form = try tenant.request("GET", Self.versionPath(index, tenant, suffix: "/form"))
        #expect(form.status == 200, "\(name): \(form.bodyText)", sourceLocation: sourceLocation)
        let formObject = try form.json()["form"]
        #expect(formObject?["attributes_type"] == .string(name), sourceLocation: sourceLocation)
        #expect(formObject?["content"]?["fields"]?.arrayValue?.first?["name"] == .string("field\(index)"), sourceLocation: sourceLocation)

        let field: JSONValue = ["field\(index)": "x"]
        let check = try tenant.post(
            ["application": .string(tenant.code), "event": "update", "content_state": field],
            path: "/api/live_activity_schemas/\(AbuseAPITests.percentEncoded(name))/\(Self.version):check")
        #expect(try check.json() == ["valid": true, "problems": []], "\(name): \(check.bodyText)", sourceLocation: sourceLocation)

        let preview = try tenant.post(
            [
                "application": .string(tenant.code), "bundle_id": "com.example.flights", "live_activity_id": "act-1",
                "live_activity": ["event": "update", "content-state": field, "attributes-type": .string(name)],
            ], path: "/api/live_activities:preview")
        #expect(try preview.json()["valid"] == true, "\(name): \(preview.bodyText)", sourceLocation: sourceLocation)
        #expect(try preview.json()["problems"] == [], "\(name): \(preview.bodyText)", sourceLocation: sourceLocation)
    }

    /// GET, the form and `:check` of deleted `index` are 404, however its partner was cached.
    private func expectGone(_ index: Int, from tenant: Tenant, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let name = Self.names[index]
        for suffix in ["", "/form"] {
            let response = try tenant.request("GET", Self.versionPath(index, tenant, suffix: suffix))
            #expect(response.status == 404, "\(name)\(suffix): \(response.bodyText)", sourceLocation: sourceLocation)
        }
        let check = try tenant.post(
            ["application": .string(tenant.code), "event": "update", "content_state": [:]],
            path: "/api/live_activity_schemas/\(AbuseAPITests.percentEncoded(name))/\(Self.version):check")
        #expect(check.status == 404, "\(name): \(check.bodyText)", sourceLocation: sourceLocation)
    }

    private func waitUntilGone(_ index: Int, from tenant: Tenant) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if (try? tenant.request("GET", Self.versionPath(index, tenant)).status) == 404 { return true }
        }
        return false
    }
}

/// Names in the list's order, types by bytes, compared by bytes (`[String] ==` would call
/// canonically equivalent names equal).
private func inByteOrder(_ names: [String]) -> [ExactName] {
    names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(ExactName.init)
}

/// Names as a list returned them.
private func listed(_ schemas: [JSONValue]) -> [ExactName] {
    schemas.compactMap { $0["attributes_type"]?.stringValue }.map(ExactName.init)
}
