import Foundation
import HTTPServer
import Registry
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

@testable import RegistryAPI

/// `GET /api/changes` reads the feed on the event loop: the present (`after=now`), each page,
/// and the page again at every wake of a parked request, so a long poll needs no handler
/// thread from its arrival to its answer. (The first pages are in `ReadsOnTheLoopTests`.)
@Suite struct ChangeFeedOnTheLoopTests {
    /// A cursor past every event: its page is empty and answers the same at any time.
    static let farCursor = ChangeCursorToken.encode(ChangeCursor(xid: 1 << 62, id: 0))

    /// An API on the shared registry's database whose lookup cache keeps the token and the
    /// application once read, like a warm replica.
    private func warmAPI(_ registry: TestRegistry) -> RegistryAPI {
        RegistryAPI(
            store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60))
    }

    private func feedRequest(_ tenant: Tenant, _ query: [(String, String)]) -> HTTPRequest {
        HTTPRequest(
            method: "GET", path: "/api/changes", query: [("application", tenant.code)] + query,
            headers: [("Authorization", "Api \(tenant.token)")])
    }

    /// With no seat left, a request that would wait is refused before the feed is read (memory
    /// alone answers it), and its connection is closed; a request that does not wait is
    /// answered as ever.
    @Test func pastTheWaitingBudgetTheRequestIsRefusedBeforeAnyRead() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let api = RegistryAPI(
            store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60),
            waitingRoom: WaitingRoom(capacity: 0))
        let waiting = feedRequest(tenant, [("wait", "30")])
        #expect(api.handle(waiting).status == 503, "warms the lookup cache")
        let refused = try #require(api.answerFromMemory(waiting), "refused without reading the feed")
        #expect(refused.status == 503 && refused.closesConnection)
        #expect(refused.headers.contains { $0.name == "Retry-After" && $0.value == "1" })
        #expect(api.handle(feedRequest(tenant, [])).status == 200)
    }

    /// Through the real server with its only handler thread held by a publish waiting for its
    /// type's lock: a long poll still parks, is woken by a publish on another replica, reads
    /// the feed again and answers, all while that publish still waits.
    @Test func aLongPollIsAnsweredWhileTheOnlyHandlerThreadIsBlocked() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let registry = try TestRegistry(databaseURL: database, workers: 1)
        defer { registry.stop() }
        let replica = try TestRegistry(databaseURL: database)
        defer { replica.stop() }
        let tenant = try registry.makeTenant()

        // The type lock a find-or-create publish takes first, held as a session lock: the test
        // holds no transaction (as `HeldCounter` does), whose xid would hold the feed back.
        let holder = try PGConnection.connect(PostgresConfig(databaseURL: database))
        _ = try holder.simpleQuery(
            "SELECT pg_advisory_lock(hashtextextended('Blocked', (SELECT id FROM applications WHERE code = '\(tenant.code)')))")
        let blocked = Background {
            try tenant.post([
                "application": .string(tenant.code), "attributesType": "Blocked", "jsonSchema": .string(SchemaAPITests.flight),
                "ifExists": "returnExisting",
            ])
        }
        #expect(waitUntil { Self.sessionsWaitingForLocks(holder) == 1 }, "the only handler thread waits for the lock")

        let waiter = Background { try tenant.request("GET", "/api/changes?application=\(tenant.code)&wait=30") }
        #expect(waitUntil { registry.api.waitingRoom.count == 1 }, "the first look read the feed and parked")
        #expect(try tenant.on(port: replica.port).publish("Other", SchemaAPITests.flight).status == 200)
        let answer = try waiter.result()
        #expect(answer.status == 200, "\(answer.bodyText)")
        #expect(try Self.events(answer.body) == ["published Other 1"])
        #expect(Self.sessionsWaitingForLocks(holder) == 1, "the handler thread was blocked all along")

        _ = try holder.simpleQuery("SELECT pg_advisory_unlock_all()")
        _ = try? blocked.result()
    }

    /// `kind type version` per event of a feed answer.
    static func events(_ body: [UInt8]) throws -> [String] {
        try (JSONParser.parse(body)["events"]?.arrayValue ?? []).map { event in
            let type = event["attributes_type"]?.stringValue ?? "-"
            let version = event["version"]?.integerLexemeValue.map(String.init) ?? "-"
            return "\(event["kind"]?.stringValue ?? "?") \(type) \(version)"
        }
    }

    /// Sessions of the connection's database waiting for a lock right now.
    static func sessionsWaitingForLocks(_ connection: PGConnection) -> Int {
        let rows = try? connection.simpleQuery(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).rows
        return rows.flatMap { try? $0.first?.int64(0) }.map(Int.init) ?? -1
    }
}
