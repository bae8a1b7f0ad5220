import HTTPServer
import Registry
@testable import RegistryAPI
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// A request is routed once, and the token, the application and the response cache are each
/// looked at once: what is missing is read (here, with no loop, at once) and the request goes
/// on from there instead of starting over.
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

        #expect(api.answerFromMemory(request) == nil, "a cold request needs the store")
        #expect(store.reads == [:], "answering from memory never reaches the store")
        let cold = api.handle(request)
        #expect(cold.status == 200)
        #expect(store.reads == ["token": 1, "application": 1, "schema": 1], "each read once, the token first")
        #expect(api.cacheStatistics.misses == 1 && api.cacheStatistics.hits == 0)

        let warm = try #require(api.answerFromMemory(request), "a warm request is answered from memory")
        #expect(warm.status == 200 && warm.body == cold.body)
        #expect(store.reads == ["token": 1, "application": 1, "schema": 1], "memory only")
        #expect(api.cacheStatistics.misses == 1 && api.cacheStatistics.hits == 1)
        let logged = lines.withLock { $0 }.filter { $0.contains("request_id") }
        #expect(logged.count == 3, "one log line per request: \(lines.withLock { $0 })")
    }

    @Test func aTokenReadFromTheStoreIsNotCheckedAgainAndItsRefusalIsAnsweredOnce() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let store = CountingStore(PostgresSchemaStore(pool: registry.pool))
        let api = RegistryAPI(store: store, clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60))
        let request = HTTPRequest(
            method: "GET", path: "/api/live_activity_schemas/Unknown/1", query: [("application", tenant.code)],
            headers: [("Authorization", "Api not-a-token")])
        #expect(api.answerFromMemory(request) == nil, "an unknown token is read from the store")
        let unknown = api.handle(request)
        #expect(unknown.status == 401)
        #expect(store.reads == ["token": 1])
        // The refusal is remembered: the next decision answers at once, from memory.
        let refused = try #require(api.answerFromMemory(request), "a remembered refusal is answered from memory")
        #expect(refused.status == 401)
        #expect(store.reads == ["token": 1])
    }
}


/// Counts the reads a request path makes of the token, the application and the version, and
/// passes every call on to the real store.
private final class CountingStore: SchemaStore {
    private let store: any SchemaStore
    private let counts = Mutex<[String: Int]>([:])

    init(_ store: any SchemaStore) { self.store = store }

    var reads: [String: Int] { counts.withLock { $0 } }

    private func count(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }

    func token(forTokenHash hash: [UInt8]) async throws -> TokenGrant? {
        count("token")
        return try await store.token(forTokenHash: hash)
    }
    func application(code: String) async throws -> Application? {
        count("application")
        return try await store.application(code: code)
    }
    func schema(application: Application, attributesType: String, version: Int32) async throws -> SchemaVersion? {
        count("schema")
        return try await store.schema(application: application, attributesType: attributesType, version: version)
    }
    func applications(accountID: Int64) async throws -> [Application] { try await store.applications(accountID: accountID) }
    func transaction<T: Sendable>(_ body: (any PublishTransaction) async throws -> T) async throws -> T { try await store.transaction(body) }
    func storedResponse(accountID: Int64, applicationID: Int64, idempotencyKey: String) async throws -> StoredResponse? {
        try await store.storedResponse(accountID: accountID, applicationID: applicationID, idempotencyKey: idempotencyKey)
    }
    func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?, includingDisabled: Bool) async throws
        -> [SchemaVersion]
    {
        try await store.list(application: application, attributesType: attributesType, after: cursor, limit: limit, includingDisabled: includingDisabled)
    }
    func changeState(application: Application, attributesType: String, version: Int32, to change: StateChange, by actor: AuditActor)
        async throws -> SchemaVersion?
    {
        try await store.changeState(application: application, attributesType: attributesType, version: version, to: change, by: actor)
    }
    func pinLatest(application: Application, attributesType: String, version: Int32, by actor: AuditActor) async throws -> Bool {
        try await store.pinLatest(application: application, attributesType: attributesType, version: version, by: actor)
    }
    func unpinLatest(application: Application, attributesType: String, by actor: AuditActor) async throws -> Int32? {
        try await store.unpinLatest(application: application, attributesType: attributesType, by: actor)
    }
    func latestCandidates(application: Application, attributesType: String) async throws -> LatestCandidates {
        try await store.latestCandidates(application: application, attributesType: attributesType)
    }
    func comparisonBasis(application: Application, attributesType: String, below version: Int32?, comparing comparison: Comparison)
        async throws -> ComparisonBasis
    {
        try await store.comparisonBasis(application: application, attributesType: attributesType, below: version, comparing: comparison)
    }
    func compatibilityPolicy(application: Application, attributesType: String?) async throws -> EffectivePolicy {
        try await store.compatibilityPolicy(application: application, attributesType: attributesType)
    }
    func setCompatibilityPolicy(application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor)
        async throws -> EffectivePolicy
    {
        try await store.setCompatibilityPolicy(application: application, attributesType: attributesType, to: policy, by: actor)
    }
    func removeCompatibilityPolicy(application: Application, attributesType: String?, by actor: AuditActor) async throws -> Bool {
        try await store.removeCompatibilityPolicy(application: application, attributesType: attributesType, by: actor)
    }
    func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) async throws -> Bool {
        try await store.delete(application: application, attributesType: attributesType, version: version, by: actor)
    }
    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent] { try await store.auditEvents(query) }
    func types(application: Application, filter: TypeFilter, limit: Int?) async throws -> [TypeSummary] {
        try await store.types(application: application, filter: filter, limit: limit)
    }
    func newestIdentical(application: Application, attributesType: String, contentHash: [UInt8]) async throws -> SchemaVersion? {
        try await store.newestIdentical(application: application, attributesType: attributesType, contentHash: contentHash)
    }
    func changes(application: Application, after cursor: ChangeCursor, limit: Int) async throws -> ChangePage {
        try await store.changes(application: application, after: cursor, limit: limit)
    }
    func currentChangeCursor() async throws -> ChangeCursor { try await store.currentChangeCursor() }
    func addReads(_ counts: [(key: UsageKey, tally: UsageTally)]) async throws { try await store.addReads(counts) }
    func usage(application: Application, attributesType: String, version: Int32?, days: Int?) async throws -> UsageReport {
        try await store.usage(application: application, attributesType: attributesType, version: version, days: days)
    }
    func pruneUsage(olderThanDays days: Int, batchSize: Int) throws -> Int { try store.pruneUsage(olderThanDays: days, batchSize: batchSize) }
    func typeMetadata(application: Application, attributesType: String) async throws -> TypeMetadata? {
        try await store.typeMetadata(application: application, attributesType: attributesType)
    }
    func setTypeMetadata(application: Application, attributesType: String, to metadata: TypeMetadata, by actor: AuditActor) async throws
        -> TypeMetadata?
    {
        try await store.setTypeMetadata(application: application, attributesType: attributesType, to: metadata, by: actor)
    }
    func setVersionMetadata(
        application: Application, attributesType: String, version: Int32, to metadata: VersionMetadata, by actor: AuditActor
    ) async throws -> SchemaVersion? {
        try await store.setVersionMetadata(application: application, attributesType: attributesType, version: version, to: metadata, by: actor)
    }
    func search(application: Application, query: SearchQuery, after: String?, limit: Int) async throws -> [SearchResult] {
        try await store.search(application: application, query: query, after: after, limit: limit)
    }
    func webhooks(application: Application) async throws -> [WebhookSubscription] { try await store.webhooks(application: application) }
    func webhook(application: Application, id: Int64) async throws -> WebhookSubscription? { try await store.webhook(application: application, id: id) }
    func createWebhook(application: Application, settings: WebhookSettings, secret: String, by actor: AuditActor) async throws -> WebhookSubscription {
        try await store.createWebhook(application: application, settings: settings, secret: secret, by: actor)
    }
    func updateWebhook(application: Application, id: Int64, settings: WebhookSettings, by actor: AuditActor) async throws -> WebhookSubscription? {
        try await store.updateWebhook(application: application, id: id, settings: settings, by: actor)
    }
    func deleteWebhook(application: Application, id: Int64, by actor: AuditActor) async throws -> Bool {
        try await store.deleteWebhook(application: application, id: id, by: actor)
    }
    func rotateWebhookSecret(application: Application, id: Int64, secret: String, graceSeconds: Int, by actor: AuditActor) async throws
        -> WebhookSubscription?
    {
        try await store.rotateWebhookSecret(application: application, id: id, secret: secret, graceSeconds: graceSeconds, by: actor)
    }
    func queueWebhookTest(application: Application, id: Int64) async throws -> Int64? { try await store.queueWebhookTest(application: application, id: id) }
    func redeliverWebhook(application: Application, id: Int64, _ redelivery: WebhookRedelivery, by actor: AuditActor) async throws -> Bool {
        try await store.redeliverWebhook(application: application, id: id, redelivery, by: actor)
    }
    func webhookAttempts(application: Application, id: Int64, before: Int64?, limit: Int) async throws -> [WebhookAttempt]? {
        try await store.webhookAttempts(application: application, id: id, before: before, limit: limit)
    }
}
