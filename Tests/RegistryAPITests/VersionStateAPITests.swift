import Registry
import RegistryAPI
@testable import RegistryPostgres
import Testing
import TestSupport

/// Version states over HTTP against PostgreSQL: every sequence of state changes × every route
/// that reads a version, each read once warm before the change so a cache that kept the old
/// answer fails here.
@Suite struct VersionStateAPITests {
    static let schema = SchemaAPITests.flight

    /// A state-change request on `type`'s version `version`.
    static func change(_ tenant: Tenant, _ type: String, _ version: Int, _ action: String, _ body: JSONObject = [:]) throws
        -> RawHTTPResponse
    {
        try tenant.request(
            "POST", "/api/live_activity_schemas/\(type)/\(version):\(action)?application=\(tenant.code)",
            body: JSONWriter.string(.object(body)))
    }

    static let deprecate: JSONObject = ["message": "move to version 2", "sunset": "2027-03-01T00:00:00Z"]
    static let disable: JSONObject = ["reason": "crashes the widget"]

    /// How each reader route answers about a version in one state.
    enum Seen: Equatable {
        case served
        case servedDeprecated
        case refused
    }

    /// A reader route: its name and what it answered, as `Seen`.
    struct Reader: Sendable {
        let name: String
        let read: @Sendable (_ tenant: Tenant, _ registry: TestRegistry, _ type: String) throws -> Seen
    }

    static func seen(_ response: RawHTTPResponse, deprecatedWhen isDeprecated: Bool, _ name: String) throws -> Seen {
        switch response.status {
        case 200:
            return isDeprecated ? .servedDeprecated : .served
        case 404:
            #expect(response.bodyText.contains("is disabled"), "\(name): \(response.bodyText)")
            return .refused
        default:
            Issue.record("\(name): \(response.status) \(response.bodyText)")
            return .refused
        }
    }

    /// A version answer is about a deprecated version when it says so in its headers and, for
    /// version bodies, in `state`.
    static func noted(_ response: RawHTTPResponse) -> Bool {
        response.header("Deprecation")?.hasPrefix("@") == true
    }

    static func warned(_ response: RawHTTPResponse) throws -> Bool {
        guard response.status == 200 else { return false }
        let warnings = try response.json()["warnings"]?.arrayValue ?? []
        return warnings.contains { $0["code"] == "deprecated_version" }
    }

    static let readers: [Reader] = [
        Reader(name: "get") { t, _, type in
            let response = try t.request("GET", "/api/live_activity_schemas/\(type)/1?application=\(t.code)")
            let state = response.status == 200 ? try response.json()["schema"]?["state"]?.stringValue : nil
            return try seen(response, deprecatedWhen: state == "deprecated" && noted(response), "get")
        },
        Reader(name: "list") { t, _, type in
            let listed = try t.list(query: "&attributesType=\(type)")
            let all = try t.list(query: "&attributesType=\(type)&include=disabled")
            #expect(all.count == 1, "include=disabled lists every live version")
            guard let version = listed.first else {
                #expect(all.first?["state"] == "disabled" && all.first?["disabled"]?["reason"] == .string(disable["reason"]!.stringValue!))
                return .refused
            }
            return version["state"] == "deprecated" ? .servedDeprecated : .served
        },
        Reader(name: "form") { t, _, type in
            let response = try t.request("GET", "/api/live_activity_schemas/\(type)/1/form?application=\(t.code)")
            return try seen(response, deprecatedWhen: noted(response) && warned(response), "form")
        },
        Reader(name: "latest") { t, _, type in
            let response = try t.request("GET", "/api/live_activity_schemas/\(type)/latest?application=\(t.code)")
            if response.status == 404 {
                #expect(response.bodyText.contains("has no live version"))
                return .refused
            }
            #expect(try response.json()["schema"]?["version"] == 1)
            return try seen(response, deprecatedWhen: noted(response), "latest")
        },
        Reader(name: "check") { t, _, type in
            let response = try t.post(
                ["application": .string(t.code), "event": "update", "content_state": ["gate": "A1"]],
                path: "/api/live_activity_schemas/\(type)/1:check")
            return try seen(response, deprecatedWhen: noted(response) && warned(response), "check")
        },
        Reader(name: "preview") { t, _, type in
            let response = try t.post(
                [
                    "application": .string(t.code), "bundle_id": "com.example.flights", "live_activity_id": "act-1", "schema_version": 1,
                    "live_activity": ["event": "update", "content-state": ["gate": "A1"], "attributes-type": .string(type)],
                ], path: "/api/live_activities:preview")
            return try seen(response, deprecatedWhen: noted(response) && warned(response), "preview")
        },
        Reader(name: "lookup") { t, _, type in
            let response = try t.post(
                ["application": .string(t.code), "attributesType": .string(type), "jsonSchema": .string(schema)],
                path: "/api/live_activity_schemas:lookup")
            if response.status == 404 { return .refused }
            return try seen(response, deprecatedWhen: noted(response), "lookup")
        },
        Reader(name: "diff") { t, _, type in
            let response = try t.request("GET", "/api/live_activity_schemas/\(type)/1:diff?against=1&application=\(t.code)")
            return try seen(response, deprecatedWhen: noted(response), "diff")
        },
        Reader(name: "export") { t, registry, type in
            let export = try ApplicationTransfer(pool: registry.pool).export(applicationCode: t.code)
            let version = try #require(export.types.first { $0.attributesType == type }?.versions.first)
            switch version.state {
            case .active: return .served
            case .deprecated(let message, let sunset, _, _):
                #expect(message == "move to version 2" && sunset == "2027-03-01T00:00:00.000000Z")
                return .servedDeprecated
            case .disabled(let reason, _, _):
                #expect(reason == "crashes the widget")
                return .refused
            }
        },
    ]

    /// Sequences of changes from active, and the state each ends in.
    static let transitions: [(steps: [String], ends: Seen)] = [
        ([], .served),
        (["deprecate"], .servedDeprecated),
        (["disable"], .refused),
        (["deprecate", "disable"], .refused),
        (["disable", "deprecate"], .servedDeprecated),
        (["deprecate", "restore"], .served),
        (["disable", "restore"], .served),
        (["deprecate", "deprecate"], .servedDeprecated),
    ]

    @Test func everyTransitionIsSeenByEveryReaderRoute() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        var checked = 0
        for (index, transition) in Self.transitions.enumerated() {
            let type = "States\(index)"
            #expect(try tenant.publish(type, Self.schema).status == 200)
            for reader in Self.readers { #expect(try reader.read(tenant, registry, type) == .served, "warm \(reader.name)") }
            for step in transition.steps {
                let body = step == "deprecate" ? Self.deprecate : step == "disable" ? Self.disable : [:]
                let response = try Self.change(tenant, type, 1, step, body)
                #expect(response.status == 200, "\(step): \(response.bodyText)")
                let expected = step == "restore" ? "active" : step == "deprecate" ? "deprecated" : "disabled"
                #expect(try response.json()["schema"]?["state"] == .string(expected))
            }
            for reader in Self.readers {
                #expect(try reader.read(tenant, registry, type) == transition.ends, "\(transition.steps) then \(reader.name)")
                checked += 1
            }
        }
        #expect(checked == Self.transitions.count * Self.readers.count && checked >= 72, "checked \(checked)")
    }

    @Test func aDeprecatedVersionCarriesDeprecationAndSunsetHeadersAndANewTag() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        #expect(try tenant.publish("Noticed", Self.schema).status == 200)
        let path = "/api/live_activity_schemas/Noticed/1?application=\(tenant.code)"
        let before = try tenant.request("GET", path)
        let tag = try #require(before.header("ETag"))
        #expect(before.header("Deprecation") == nil && before.header("Sunset") == nil)
        #expect(try Self.change(tenant, "Noticed", 1, "deprecate", Self.deprecate).status == 200)

        let after = try tenant.request("GET", path, headers: [("If-None-Match", tag)])
        #expect(after.status == 200, "the old tag must not match a body that now says deprecated")
        #expect(after.header("Sunset") == "Mon, 01 Mar 2027 00:00:00 GMT")
        let seconds = try #require(after.header("Deprecation").flatMap { Int64($0.dropFirst()) })
        #expect(abs(seconds - Int64(WallClock.now())) < 600)
        let deprecation = try #require(try after.json()["schema"]?["deprecation"])
        #expect(deprecation["message"] == "move to version 2" && deprecation["sunset"] == "2027-03-01T00:00:00Z")
        #expect(deprecation["by"]?.stringValue?.isEmpty == false && deprecation["at"]?.stringValue?.hasSuffix("Z") == true)
        let newTag = try #require(after.header("ETag"))
        #expect(newTag != tag)
        let again = try tenant.request("GET", path, headers: [("If-None-Match", newTag)])
        #expect(again.status == 304 && again.header("Deprecation") != nil)

        // Without a sunset there is no Sunset header; restoring takes both away and the old tag back.
        #expect(try Self.change(tenant, "Noticed", 1, "deprecate", ["message": "soon"]).status == 200)
        let unsunset = try tenant.request("GET", path)
        #expect(unsunset.header("Sunset") == nil && unsunset.header("Deprecation") != nil)
        #expect(try Self.change(tenant, "Noticed", 1, "restore").status == 200)
        let restored = try tenant.request("GET", path)
        #expect(restored.header("Deprecation") == nil && restored.header("ETag") == tag)
        #expect(try restored.json()["schema"]?["state"] == "active" && restored.json()["schema"]?["deprecation"] == nil)
    }

    @Test func aDisabledVersionNamesWhoAndWhyOnlyToAdminTokens() throws {
        let registry = try TestRegistry.shared()
        let admin = try registry.makeTenant()
        let reader = try AdminStore(pool: registry.pool).tenant(like: admin, terms: TokenTerms(scope: .read, name: "reader"))
        #expect(try admin.publish("Withdrawn", Self.schema).status == 200)
        let disabled = try Self.change(admin, "Withdrawn", 1, "disable", Self.disable)
        #expect(disabled.status == 200)
        let by = try #require(try disabled.json()["schema"]?["disabled"]?["by"]?.stringValue)
        let path = "/api/live_activity_schemas/Withdrawn/1?application=\(admin.code)"
        try expectError(try admin.request("GET", path), status: 404, code: 5, mentioning: "version 1 of \"Withdrawn\" is disabled by \(by): crashes the widget")
        let refused = try reader.request("GET", path)
        try expectError(refused, status: 404, code: 5, mentioning: "version 1 of \"Withdrawn\" is disabled")
        #expect(!refused.bodyText.contains("crashes") && !refused.bodyText.contains(" by "), "\(refused.bodyText)")
        // Its number stays taken.
        try expectError(try admin.publish("Withdrawn", Self.schema, version: 1), status: 409, code: 6)
        // A read token may not restore it.
        try expectError(try Self.change(reader, "Withdrawn", 1, "restore"), status: 403, code: 7)
    }

    @Test func stateRequestsAreCheckedBeforeAnythingIsWritten() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        #expect(try tenant.publish("Checked", Self.schema).status == 200)
        let cases: [(action: String, body: JSONObject, field: String)] = [
            ("deprecate", [:], "message"),
            ("deprecate", ["message": ""], "message"),
            ("deprecate", ["message": .string(String(repeating: "x", count: 1025))], "message"),
            ("deprecate", ["message": "a\u{7}b"], "message"),
            ("deprecate", ["message": "m", "sunset": "next week"], "sunset"),
            ("deprecate", ["message": "m", "sunset": "1969-12-31T23:59:59Z"], "sunset"),
            ("deprecate", ["message": "m", "sunset": "2027-02-30T00:00:00Z"], "sunset"),
            ("deprecate", ["message": 3], "message"),
            ("disable", [:], "reason"),
            ("disable", ["reason": .string(String(repeating: "é", count: 513))], "reason"),
        ]
        for (action, body, field) in cases {
            try expectError(try Self.change(tenant, "Checked", 1, action, body), status: 400, code: 3, mentioning: field)
        }
        #expect(try Self.change(tenant, "Checked", 1, "deprecate", ["message": .string(String(repeating: "x", count: 1024))]).status == 200)
        try expectError(try Self.change(tenant, "Checked", 7, "deprecate", ["message": "m"]), status: 404, code: 5)
        try expectError(try Self.change(tenant, "Unknown", 1, "restore"), status: 404, code: 5)
        try expectError(
            try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)&include=deleted"), status: 400, code: 3,
            mentioning: "include")
    }

    static func latestVersion(_ tenant: Tenant, _ type: String) throws -> JSONValue? {
        let response = try tenant.request("GET", "/api/live_activity_schemas/\(type)/latest?application=\(tenant.code)")
        return response.status == 200 ? try response.json()["schema"]?["version"] : nil
    }

    static func pin(_ tenant: Tenant, _ type: String, _ version: JSONValue?) throws -> RawHTTPResponse {
        let path = "/api/live_activity_types/\(type)/latest_pin?application=\(tenant.code)"
        guard let version else { return try tenant.request("DELETE", path) }
        return try tenant.request("PUT", path, body: JSONWriter.string(["version": version]))
    }

    static func summary(_ tenant: Tenant, _ type: String) throws -> JSONValue? {
        let types = try tenant.request("GET", "/api/live_activity_types?application=\(tenant.code)&prefix=\(type)").json()["types"]
        return types?.arrayValue?.first
    }

    @Test func latestSkipsDeprecatedUnlessOnlyDeprecatedAreLeftNeverDisabledAndThePinWins() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        for _ in 1...3 { #expect(try tenant.publish("Rolled", Self.schema).status == 200) }
        #expect(try Self.latestVersion(tenant, "Rolled") == 3)
        #expect(try Self.change(tenant, "Rolled", 3, "deprecate", ["message": "m"]).status == 200)
        #expect(try Self.latestVersion(tenant, "Rolled") == 2)
        #expect(try Self.change(tenant, "Rolled", 2, "deprecate", ["message": "m"]).status == 200)
        #expect(try Self.latestVersion(tenant, "Rolled") == 1)
        #expect(try Self.change(tenant, "Rolled", 1, "deprecate", ["message": "m"]).status == 200)
        #expect(try Self.latestVersion(tenant, "Rolled") == 3, "only deprecated left: the newest deprecated")
        #expect(try Self.change(tenant, "Rolled", 3, "disable", ["reason": "r"]).status == 200)
        #expect(try Self.latestVersion(tenant, "Rolled") == 2, "never a disabled one")
        let latestCheck = try tenant.post(
            ["application": .string(tenant.code), "event": "update", "content_state": ["gate": "A1"]],
            path: "/api/live_activity_schemas/Rolled/latest:check")
        #expect(try latestCheck.json()["version"] == 2 && Self.warned(latestCheck))

        // The pin wins over the rule and over later publishes.
        let pinned = try Self.pin(tenant, "Rolled", 1)
        #expect(pinned.status == 200, "\(pinned.bodyText)")
        #expect(try pinned.json()["latest_pin"] == 1 && pinned.json()["latest"] == 1)
        #expect(try Self.latestVersion(tenant, "Rolled") == 1)
        #expect(try tenant.publish("Rolled", Self.schema).status == 200)
        #expect(try Self.latestVersion(tenant, "Rolled") == 1)
        let summary = try #require(try Self.summary(tenant, "Rolled"))
        #expect(summary["latest_pin"] == 1 && summary["states"]?["deprecated"] == 2 && summary["states"]?["disabled"] == 1)
        #expect(summary["live_versions"] == 4)

        // A disabled or unknown version cannot be pinned; a pinned one that is disabled is no
        // longer followed.
        try expectError(try Self.pin(tenant, "Rolled", 3), status: 400, code: 3, mentioning: "disabled")
        try expectError(try Self.pin(tenant, "Rolled", 9), status: 404, code: 5)
        try expectError(try Self.pin(tenant, "Rolled", "x"), status: 400, code: 3, mentioning: "version")
        #expect(try Self.change(tenant, "Rolled", 1, "disable", ["reason": "r"]).status == 200)
        #expect(try Self.latestVersion(tenant, "Rolled") == 4)
        #expect(try Self.change(tenant, "Rolled", 1, "restore").status == 200)
        #expect(try Self.latestVersion(tenant, "Rolled") == 1)

        let unpinned = try Self.pin(tenant, "Rolled", nil)
        let unpinnedBody = try unpinned.json()
        #expect(unpinned.status == 200 && unpinnedBody["latest_pin"] == nil && unpinnedBody["latest"] == 4)
        #expect(try Self.latestVersion(tenant, "Rolled") == 4)
        #expect(try Self.summary(tenant, "Rolled")?["latest_pin"] == nil)
        try expectError(try Self.pin(tenant, "Rolled", nil), status: 404, code: 5, mentioning: "no latest pin")
    }

    @Test func aStateChangeOrPinOnOneReplicaIsSeenByAnotherThroughItsHint() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database)
        // The timer reads the feed only once a minute: what b sees in time, the hint told it.
        let b = try TestRegistry(databaseURL: database, fallbackInterval: .seconds(60))
        defer { a.stop(); b.stop() }
        let onA = try a.makeTenant()
        let onB = onA.on(b)
        #expect(try onA.publish("Shared", Self.schema).status == 200)
        #expect(try onA.publish("Shared", Self.schema).status == 200)
        let paths = ["/api/live_activity_schemas/Shared/2", "/api/live_activity_schemas/Shared/2/form", "/api/live_activity_schemas/Shared/latest"]
        // Warm: b has every answer in memory.
        for path in paths {
            #expect(try eventually({ try onB.request("GET", "\(path)?application=\(onB.code)") }, until: { $0.status == 200 }).status == 200)
        }
        #expect(try Self.change(onA, "Shared", 2, "disable", Self.disable).status == 200)
        for path in paths.prefix(2) {
            let refused = try eventually({ try onB.request("GET", "\(path)?application=\(onB.code)") }, until: { $0.status == 404 })
            #expect(refused.status == 404, "replica b kept serving a disabled version at \(path)")
        }
        #expect(try eventually({ try Self.latestVersion(onB, "Shared") }, until: { $0 == 1 }) == 1)

        #expect(try Self.change(onA, "Shared", 2, "restore").status == 200)
        #expect(try eventually({ try Self.latestVersion(onB, "Shared") }, until: { $0 == 2 }) == 2)
        #expect(try Self.pin(onA, "Shared", 1).status == 200)
        #expect(try eventually({ try Self.latestVersion(onB, "Shared") }, until: { $0 == 1 }) == 1, "replica b did not follow the pin")
        #expect(try Self.change(onA, "Shared", 1, "deprecate", ["message": "m"]).status == 200)
        let noted = try eventually({ try onB.request("GET", "/api/live_activity_schemas/Shared/1?application=\(onB.code)") }, until: {
            $0.header("Deprecation") != nil
        })
        #expect(noted.header("Deprecation") != nil)
    }

    /// The application's feed events after `start` other than publishes, once there are `count`.
    /// The feed hands out an event once every older transaction of the database has ended, so
    /// under a full parallel test run the publish before `start` may still come after it, and
    /// the events can take seconds.
    private static func feedAfter(_ start: String, of tenant: Tenant, until count: Int) throws -> [JSONValue] {
        try eventually(seconds: 60, {
            let events = try tenant.request("GET", "/api/changes?application=\(tenant.code)&after=\(start)").json()["events"]?.arrayValue ?? []
            return events.filter { $0["kind"]?.stringValue != "published" }
        }, until: { $0.count >= count })
    }

    @Test func eachChangeIsAuditedAndInTheFeed() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        #expect(try tenant.publish("Fed", Self.schema).status == 200)
        let start = try tenant.request("GET", "/api/changes?application=\(tenant.code)").json()["cursor"]?.stringValue ?? ""
        #expect(try Self.change(tenant, "Fed", 1, "deprecate", Self.deprecate).status == 200)
        #expect(try Self.change(tenant, "Fed", 1, "disable", Self.disable).status == 200)
        #expect(try Self.change(tenant, "Fed", 1, "restore").status == 200)
        #expect(try Self.pin(tenant, "Fed", 1).status == 200)
        #expect(try Self.pin(tenant, "Fed", nil).status == 200)
        // A repeated restore changes nothing: audited, but no feed event.
        #expect(try Self.change(tenant, "Fed", 1, "restore").status == 200)

        let feed = try Self.feedAfter(start, of: tenant, until: 5)
        let kinds = feed.map { "\($0["kind"]?.stringValue ?? "?") \($0["version"].map(JSONWriter.string) ?? "-")" }
        #expect(kinds == ["state_changed 1", "state_changed 1", "state_changed 1", "latest_pinned 1", "latest_pinned null"], "\(kinds)")

        let events = try tenant.request("GET", "/api/audit_events?application=\(tenant.code)&attributesType=Fed").json()["audit_events"]?.arrayValue ?? []
        let actions = events.compactMap { $0["action"]?.stringValue }
        #expect(actions.filter { $0 == "state_change" }.count == 4, "\(actions)")
        #expect(actions.filter { $0 == "latest_pin" }.count == 2, "\(actions)")
        let disabled = try #require(events.first { $0["details"]?["state"] == "disabled" })
        #expect(disabled["details"]?["reason"] == "crashes the widget" && disabled["version"] == 1)
    }

    /// A change made without the service (psql) feeds the same events through the triggers, and
    /// replicas follow it; the CHECKs keep a state and its details together.
    @Test func aStateChangedWithPsqlIsInTheFeedAndFollowed() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Manual", Self.schema).status == 200)
        let path = "/api/live_activity_schemas/Manual/1?application=\(tenant.code)"
        #expect(try tenant.request("GET", path).status == 200)
        let start = try tenant.request("GET", "/api/changes?application=\(tenant.code)").json()["cursor"]?.stringValue ?? ""
        let version = "FROM applications AS a WHERE v.application_id = a.id AND a.code = '\(tenant.code)' AND v.attributes_type = 'Manual'"
        try registry.pool.withConnection { connection in
            _ = try connection.simpleQuery(
                "UPDATE schema_versions AS v SET state = 'disabled', disabled_reason = 'by hand', disabled_at = now(), disabled_by = 'dba' \(version)")
            #expect(throws: PGError.self) {
                _ = try connection.simpleQuery("UPDATE schema_versions AS v SET state = 'deprecated' \(version)")
            }
            #expect(throws: PGError.self) {
                _ = try connection.simpleQuery("UPDATE schema_versions AS v SET state = 'retired' \(version)")
            }
        }
        let refused = try eventually({ try tenant.request("GET", path) }, until: { $0.status == 404 })
        try expectError(refused, status: 404, code: 5, mentioning: "is disabled by dba: by hand")
        let feed = try Self.feedAfter(start, of: tenant, until: 1)
        #expect(feed.map { $0["kind"] } == ["state_changed"])
    }

    @Test func exportAndImportKeepStatesAndPins() throws {
        let registry = try TestRegistry.shared()
        let source = try registry.makeTenant()
        let target = try registry.makeTenant()
        for _ in 1...3 { #expect(try source.publish("Moved", Self.schema).status == 200) }
        #expect(try Self.change(source, "Moved", 1, "deprecate", Self.deprecate).status == 200)
        #expect(try Self.change(source, "Moved", 3, "disable", Self.disable).status == 200)
        #expect(try Self.pin(source, "Moved", 1).status == 200)
        let transfer = ApplicationTransfer(pool: registry.pool)
        let exported = try transfer.export(applicationCode: source.code)
        // The document survives its JSON form.
        let document = try ApplicationExport(json: JSONParser.parse(Array(JSONWriter.string(exported.json).utf8)))
        #expect(document == exported)
        #expect(document.types.first?.latestPin == 1)

        let outcome = try transfer.importing(document, intoApplicationCode: target.code, dryRun: false)
        #expect(outcome.versionsAdded == 3 && outcome.statesChanged == 2 && outcome.pinsChanged == 1, "\(outcome)")
        #expect(try Self.latestVersion(target, "Moved") == 1)
        let listed = try target.list(query: "&include=disabled").map { ($0["version"], $0["state"]) }
        #expect(listed.map(\.1) == ["disabled", "active", "deprecated"])
        let deprecation = try target.request("GET", "/api/live_activity_schemas/Moved/1?application=\(target.code)").json()["schema"]?["deprecation"]
        #expect(deprecation?["message"] == "move to version 2" && deprecation?["sunset"] == "2027-03-01T00:00:00Z")
        // Importing the same again changes nothing.
        #expect(try !transfer.importing(document, intoApplicationCode: target.code, dryRun: false).changesAnything)
    }
}
