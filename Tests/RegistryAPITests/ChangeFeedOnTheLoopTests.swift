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

    @Test func afterNowReadsThePresentThenThePageOnTheLoop() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("BeforeNow", SchemaAPITests.flight).status == 200)
        let api = warmAPI(registry)
        let request = feedRequest(tenant, [("after", "now")])
        #expect(api.handle(request).status == 200)
        guard case .later(let present) = api.decide(request) else {
            Issue.record("the present is read without a thread waiting")
            return
        }
        let afterPresent = Mutex<Decision?>(nil)
        present { next in afterPresent.withLock { $0 = next } }
        guard case .later(let page)? = afterPresent.withLock({ $0 }), case .respond(let response)? = completedHere(page) else {
            Issue.record("the page after the present is read without a thread waiting too")
            return
        }
        #expect(response.status == 200)
        #expect(try Self.events(response.body) == [], "what was final before now is not handed out")
    }

    /// A long poll of `tenant`'s feed with nothing new, parked on its first look. Where nothing
    /// can park, the same request answers at once with what there is.
    private func parkedReader(_ tenant: Tenant) throws -> WaitRequest? {
        let api = warmAPI(try TestRegistry.shared())
        let request = feedRequest(tenant, [("wait", "30")])
        #expect(api.handle(request).status == 200)
        guard case .wait(let parked)? = Self.settled(api.decide(request)) else {
            Issue.record("with nothing new, the first look parks the request")
            return nil
        }
        return parked
    }

    @Test func aParkedReaderReadsTheFeedAgainOnTheLoopWhenWoken() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        guard let parked = try parkedReader(tenant) else { return }
        #expect(try tenant.publish("Woken", SchemaAPITests.flight).status == 200)
        guard case .later(let again) = parked.then(.notified) else {
            Issue.record("woken, it reads the feed again without a thread waiting")
            return
        }
        var next = completedHere(again)
        // An older transaction of another test still running holds the event back for a moment;
        // the reader then parks until a short deadline and looks again.
        var looks = 0
        while case .wait(let retry)? = next, looks < 250 {
            usleep(20_000)
            looks += 1
            next = Self.settled(retry.then(.deadline))
        }
        guard case .respond(let response)? = next else {
            Issue.record("the woken reader answers, having read on the loop")
            return
        }
        #expect(response.status == 200)
        #expect(try Self.events(response.body) == ["published Woken 1"])
    }

    @Test func aFullRoomRefusesTheFirstLookAtOnceAndAStoppingServerGetsWhatThereIs() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        guard let parked = try parkedReader(tenant) else { return }
        guard case .respond(let refused) = parked.then(.full) else {
            Issue.record("a full room is refused without another read")
            return
        }
        #expect(refused.status == 503 && refused.closesConnection)
        #expect(refused.headers.contains { $0.name == "Retry-After" && $0.value == "1" })
        guard case .later(let last) = parked.then(.answerNow), case .respond(let now)? = completedHere(last) else {
            Issue.record("told to answer now, it reads once more on the loop and answers")
            return
        }
        #expect(now.status == 200)
        #expect(try Self.events(now.body) == [])
    }

    /// With no seat left, a request that would wait is refused before the feed is read (the
    /// decision is the answer itself, not a read), and its connection is closed; a request
    /// that does not wait is answered as ever.
    @Test func pastTheWaitingBudgetTheRequestIsRefusedBeforeAnyRead() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let api = RegistryAPI(
            store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60),
            waitingRoom: WaitingRoom(capacity: 0))
        let waiting = feedRequest(tenant, [("wait", "30")])
        #expect(api.handle(waiting).status == 503, "warms the lookup cache")
        guard case .respond(let refused) = api.decide(waiting) else {
            Issue.record("refused without reading the feed")
            return
        }
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

    /// Follows the reads of a decision where no loop runs, up to what comes next.
    static func settled(_ decision: Decision) -> Decision? {
        guard case .later(let read) = decision else { return decision }
        return completedHere(read)
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
