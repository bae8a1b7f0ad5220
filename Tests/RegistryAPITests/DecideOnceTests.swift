import HTTPServer
import Registry
@testable import RegistryAPI
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// An event loop decides each request once: routing, the token, the application and the
/// response cache are each looked at once, and what is missing becomes a read the loop drives
/// (here, with no loop, it completes at once), going on from there instead of starting over.
@Suite struct DecideOnceTests {
    @Test func aColdGetReadsEachThingOnceCountsOneMissAndIsLoggedOnce() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("DecidedOnce", SchemaAPITests.flight).status == 200)
        let store = CountingStore(PostgresSchemaStore(pool: registry.pool))
        let lines = Mutex<[String]>([])
        let logger = Logger(minimumLevel: .info) { bytes in lines.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
        let api = RegistryAPI(
            store: store, clock: TestClock().now, logger: logger,
            caching: CacheSettings(responseBytes: 1 << 20, lookupSeconds: 60))
        let request = HTTPRequest(
            method: "GET", path: "/api/live_activity_schemas/DecidedOnce/1", query: [("application", tenant.code)],
            headers: [("Authorization", "Api \(tenant.token)")])

        guard case .later(let read) = api.decide(request) else {
            Issue.record("a cold request reads the store without a thread")
            return
        }
        #expect(store.reads == [:], "deciding never reaches the store")
        guard case .respond(let cold) = completedHere(read) else {
            Issue.record("a version is answered once read, on the event loop")
            return
        }
        #expect(cold.status == 200)
        #expect(store.reads == ["token": 1, "application": 1, "schema": 1], "each read once, the token first")
        #expect(api.cacheStatistics.misses == 1 && api.cacheStatistics.hits == 0)

        guard case .respond(let warm) = api.decide(request) else {
            Issue.record("a warm request is answered on the event loop")
            return
        }
        #expect(warm.status == 200 && warm.body == cold.body)
        #expect(store.reads == ["token": 1, "application": 1, "schema": 1], "memory only")
        #expect(api.cacheStatistics.misses == 1 && api.cacheStatistics.hits == 1)
        let logged = lines.withLock { $0 }.filter { $0.contains("request_id") }
        #expect(logged.count == 2, "one log line per request: \(lines.withLock { $0 })")
    }

    @Test func aTokenReadFromTheStoreIsNotCheckedAgainAndItsRefusalIsAnsweredOnce() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let store = CountingStore(PostgresSchemaStore(pool: registry.pool))
        let api = RegistryAPI(store: store, clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60))
        let request = HTTPRequest(
            method: "GET", path: "/api/live_activity_schemas/Unknown/1", query: [("application", tenant.code)],
            headers: [("Authorization", "Api not-a-token")])
        guard case .later(let read) = api.decide(request) else {
            Issue.record("an unknown token is read without a thread")
            return
        }
        guard case .respond(let unknown) = completedHere(read) else {
            Issue.record("the refusal is answered on the event loop")
            return
        }
        #expect(unknown.status == 401)
        #expect(store.reads == ["token": 1])
        // The refusal is remembered: the next decision answers at once, from memory.
        guard case .respond(let refused) = api.decide(request) else {
            Issue.record("a remembered refusal is answered on the event loop")
            return
        }
        #expect(refused.status == 401)
        #expect(store.reads == ["token": 1])
    }
}

/// A list is read like a version, without a thread waiting; only a large one is written on a
/// handler thread, so that the event loop never spends long on one request.
@Suite struct ListOnTheLoopTests {
    private static func decidedList(
        _ tenant: Tenant, _ registry: TestRegistry, type: String, pageSize: Int? = nil
    ) -> Decision? {
        let api = RegistryAPI(store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now)
        let request = HTTPRequest(
            method: "GET", path: "/api/live_activity_schemas",
            query: [("application", tenant.code), ("attributesType", type)] + (pageSize.map { [("pageSize", String($0))] } ?? []),
            headers: [("Authorization", "Api \(tenant.token)")])
        guard case .later(let read) = api.decide(request) else { return nil }
        return completedHere(read)
    }

    @Test func aShortListIsWrittenOnTheLoopOnceRead() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("ShortList", SchemaAPITests.flight).status == 200)
        guard case .respond(let response)? = Self.decidedList(tenant, registry, type: "ShortList") else {
            Issue.record("a short list is answered on the loop once read")
            return
        }
        #expect(response.status == 200)
        #expect(try JSONParser.parse(response.body)["schemas"]?.arrayValue?.count == 1)
    }

    /// A loop keeps many reads in flight: pages of more rows than a long list's first batch
    /// are read on a handler thread, so that their memory is bounded by the threads.
    @Test(arguments: [(16, true), (17, false), (1000, false)])
    func onlyShortPagesAreReadOnTheLoop(pageSize: Int, onTheLoop: Bool) throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Paged", SchemaAPITests.flight).status == 200)
        switch Self.decidedList(tenant, registry, type: "Paged", pageSize: pageSize) {
        case .respond(let response)?:
            #expect(onTheLoop && response.status == 200, "pageSize \(pageSize)")
        case .work(let work)?:
            #expect(!onTheLoop, "pageSize \(pageSize)")
            guard case .respond(let response) = work() else {
                Issue.record("a page never waits")
                return
            }
            #expect(try JSONParser.parse(response.body)["schemas"]?.arrayValue?.count == 1)
        default:
            Issue.record("pageSize \(pageSize): the list is answered or handed on")
        }
    }

    /// Long pages hold megabytes each while written: at most `concurrentLongPages` are read
    /// and written at once, and the next waits without a thread until one of them ends.
    @Test func longPagesBeyondTheBoundWaitWithoutAThread() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Bounded", SchemaAPITests.flight).status == 200)
        let api = RegistryAPI(store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now)
        let request = HTTPRequest(
            method: "GET", path: "/api/live_activity_schemas",
            query: [("application", tenant.code), ("attributesType", "Bounded"), ("pageSize", "100")],
            headers: [("Authorization", "Api \(tenant.token)")])
        func decided() -> Decision? {
            guard case .later(let read) = api.decide(request) else { return nil }
            return completedHere(read)
        }
        var running: [@Sendable () -> Decision] = []
        for _ in 0..<SchemaHandlers.concurrentLongPages {
            guard case .work(let work)? = decided() else {
                Issue.record("a long page within the bound goes to a handler thread")
                return
            }
            running.append(work)
        }
        guard case .later(let queued) = api.decide(request) else {
            Issue.record("the application is read first")
            return
        }
        // The reads complete here; the page then waits for a turn, and `next` stays empty.
        let next = Mutex<Decision?>(nil)
        @Sendable func follow(_ start: @escaping @Sendable (@escaping @Sendable (Decision) -> Void) -> Void) {
            start { decided in
                if case .later(let more) = decided { return follow(more) }
                next.withLock { $0 = decided }
            }
        }
        follow(queued)
        #expect(next.withLock { $0 } == nil, "past the bound, the page waits")
        guard case .respond(let first) = running.removeFirst()() else {
            Issue.record("a page is answered")
            return
        }
        #expect(first.status == 200)
        guard case .work(let work)? = next.withLock({ $0 }) else {
            Issue.record("the ended page's turn goes to the waiting one")
            return
        }
        guard case .respond(let response) = work() else {
            Issue.record("a page is answered")
            return
        }
        #expect(response.body == first.body)
        for page in running { _ = page() }
    }

    @Test func aListOfLargeTextsIsWrittenOnAHandlerThread() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let padding = String(repeating: "x", count: 60_000)
        for version in 1...5 {
            let schema = #"{"type":"object","description":"\#(version)\#(padding)","properties":{"a":{"type":"string"}}}"#
            #expect(try tenant.publish("LargeList", schema).status == 200)
        }
        guard case .work(let work)? = Self.decidedList(tenant, registry, type: "LargeList") else {
            Issue.record("5 × 60 KB is more than the loop writes")
            return
        }
        guard case .respond(let response) = work() else {
            Issue.record("a list never waits")
            return
        }
        #expect(try JSONParser.parse(response.body)["schemas"]?.arrayValue?.count == 5)
    }
}

/// Starts a read where no event loop runs, so it completes before `start` returns, and
/// follows the reads that come after it (the token, then the application, then the version).
func completedHere(_ start: @escaping @Sendable (@escaping @Sendable (Decision) -> Void) -> Void) -> Decision? {
    let next = Mutex<Decision?>(nil)
    start { decided in next.withLock { $0 = decided } }
    guard let decided = next.withLock({ $0 }) else { return nil }
    if case .later(let following) = decided { return completedHere(following) }
    return decided
}

/// Counts the reads a request path makes of the token, the application and the version, and
/// passes every call on to the real store.
private final class CountingStore: SchemaStore {
    private let store: any SchemaStore
    private let counts = Mutex<[String: Int]>([:])

    init(_ store: any SchemaStore) { self.store = store }

    var reads: [String: Int] { counts.withLock { $0 } }

    private func count(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }

    func token(forTokenHash hash: [UInt8]) throws -> TokenGrant? {
        count("token")
        return try store.token(forTokenHash: hash)
    }
    func application(code: String) throws -> Application? {
        count("application")
        return try store.application(code: code)
    }
    func schema(application: Application, attributesType: String, version: Int32) throws -> SchemaVersion? {
        count("schema")
        return try store.schema(application: application, attributesType: attributesType, version: version)
    }
    func applications(accountID: Int64) throws -> [Application] { try store.applications(accountID: accountID) }
    func transaction<T>(_ body: (any PublishTransaction) throws -> T) throws -> T { try store.transaction(body) }
    func storedResponse(accountID: Int64, applicationID: Int64, idempotencyKey: String) throws -> StoredResponse? {
        try store.storedResponse(accountID: accountID, applicationID: applicationID, idempotencyKey: idempotencyKey)
    }
    func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?) throws -> [SchemaVersion] {
        try store.list(application: application, attributesType: attributesType, after: cursor, limit: limit)
    }
    func comparisonBasis(application: Application, attributesType: String, below version: Int32?, comparing comparison: Comparison)
        throws -> ComparisonBasis
    {
        try store.comparisonBasis(application: application, attributesType: attributesType, below: version, comparing: comparison)
    }
    func compatibilityPolicy(application: Application, attributesType: String?) throws -> EffectivePolicy {
        try store.compatibilityPolicy(application: application, attributesType: attributesType)
    }
    func setCompatibilityPolicy(application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor)
        throws -> EffectivePolicy
    {
        try store.setCompatibilityPolicy(application: application, attributesType: attributesType, to: policy, by: actor)
    }
    func removeCompatibilityPolicy(application: Application, attributesType: String?, by actor: AuditActor) throws -> Bool {
        try store.removeCompatibilityPolicy(application: application, attributesType: attributesType, by: actor)
    }
    func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) throws -> Bool {
        try store.delete(application: application, attributesType: attributesType, version: version, by: actor)
    }
    func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] { try store.auditEvents(query) }
    func types(application: Application, filter: TypeFilter, limit: Int?) throws -> [TypeSummary] {
        try store.types(application: application, filter: filter, limit: limit)
    }
    func newestIdentical(application: Application, attributesType: String, contentHash: [UInt8]) throws -> SchemaVersion? {
        try store.newestIdentical(application: application, attributesType: attributesType, contentHash: contentHash)
    }
    func changes(application: Application, after cursor: ChangeCursor, limit: Int) throws -> ChangePage {
        try store.changes(application: application, after: cursor, limit: limit)
    }
    func currentChangeCursor() throws -> ChangeCursor { try store.currentChangeCursor() }
}
