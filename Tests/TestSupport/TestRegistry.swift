import Foundation
import HTTPServer
import Registry
import RegistryAPI
import RegistryPostgres
import Synchronization

/// A real registry for tests: the production `RegistryAPI` and `PostgresSchemaStore` behind a
/// real `HTTPServer` on an ephemeral port, on a fresh database of the shared throwaway cluster.
/// Tests isolate themselves by making their own tenant (account, application, token).
public final class TestRegistry: Sendable {
    public let databaseURL: String
    public let pool: ConnectionPool
    public let server: HTTPServer
    public let api: RegistryAPI
    private let follower: ChangeFollower
    private let workers: Int
    private let hold = HandlerThreadHold()
    public var port: Int { server.port }

    private static let sharedInstance = Mutex<TestRegistry?>(nil)

    /// One registry per test process, started on first use.
    public static func shared() throws -> TestRegistry {
        try sharedInstance.withLock { instance in
            if let instance { return instance }
            let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
            instance = registry
            return registry
        }
    }

    /// A registry of its own on `databaseURL` (already migrated), caching like production
    /// (responses, invalidated from the change feed) except lookups, so revocation tests are
    /// exact unless they ask for a lookup cache. Tests of cache lifetimes pass a `TestClock`;
    /// tests of what the change hints alone do pass a long `fallbackInterval`.
    public init(
        databaseURL: String, poolSize: Int = 8, workers: Int = 8,
        caching: CacheSettings = CacheSettings(responseBytes: 8 << 20, lookupSeconds: 0),
        clock: @escaping @Sendable () -> Double = WallClock.now,
        reviewing: ReviewSettings = ReviewSettings(),
        fallbackInterval: Duration = ChangeFollower.fallbackInterval,
        usage: UsageSettings = UsageSettings()
    ) throws {
        self.databaseURL = databaseURL
        pool = ConnectionPool(config: PostgresConfig(databaseURL: databaseURL, poolSize: poolSize))
        let api = RegistryAPI(
            store: PostgresSchemaStore(pool: pool), clock: clock, caching: caching, reviewing: reviewing, usage: usage)
        self.api = api
        // Every connection of the follower, the first included, flushes the caches. Waiting for
        // the first one keeps that flush from landing in the middle of a test's cache checks.
        let following = DispatchSemaphore(value: 0)
        follower = ChangeFollower(
            pool: pool, fallbackInterval: fallbackInterval, onChanges: { api.apply($0) }, onTokenChange: { api.forgetTokens() },
            onRestart: {
                api.flushCaches()
                following.signal()
            }, onRead: { api.noteFeedRead(bound: $0) })
        follower.start()
        _ = following.wait(timeout: .now() + 10)
        self.workers = workers
        let hold = self.hold
        server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: workers),
            respond: { request in
                request.path.utf8.elementsEqual(HandlerThreadHold.path.utf8) ? await hold.respond(request) : await api.respond(request)
            },
            waitingRoom: api.waitingRoom, rejection: api.reject)
        try server.start()
    }

    /// Holds every handler thread with blocking work until `release`: what answers meanwhile
    /// runs on the event loops alone.
    public func holdHandlerThreads(as tenant: Tenant) throws -> HandlerThreadHold.Held {
        try hold.hold(workers, of: tenant)
    }

    /// Stops only the change follower, as if it stalled: the server keeps answering, and its
    /// row in `replica_feed_positions` is removed.
    public func stopFollowing() {
        follower.stop()
    }

    public var replicaID: String { follower.replica.id }

    public func stop() {
        server.stop(graceSeconds: 1)
        follower.stop()
        pool.close()
    }

    /// A new account with one application (coded `applicationCode`, or a generated code) and
    /// one live token.
    public func makeTenant(applicationCode: String? = nil) throws -> Tenant {
        try AdminStore(pool: pool).newTenant(port: port, applicationCode: applicationCode)
    }

    public func revoke(_ tenant: Tenant) throws {
        _ = try AdminStore(pool: pool).revokeToken(id: tenant.tokenID)
    }
}

/// One account's view of a test registry, with shorthands for the common calls.
public struct Tenant: Sendable {
    public let port: Int
    public let code: String
    public let token: String
    public let accountID: Int64
    public let tokenID: Int64

    public init(port: Int, code: String, token: String, accountID: Int64, tokenID: Int64) {
        self.port = port
        self.code = code
        self.token = token
        self.accountID = accountID
        self.tokenID = tokenID
    }

    /// The same tenant talking to another server (a replica, or the admin port).
    public func on(port: Int) -> Tenant {
        Tenant(port: port, code: code, token: token, accountID: accountID, tokenID: tokenID)
    }

    /// Sends a request with this tenant's token unless `token` says otherwise (nil: no header).
    public func request(
        _ method: String, _ target: String, body: String? = nil, token: String?? = .some(nil),
        headers: [(String, String)] = []
    ) throws -> RawHTTPResponse {
        var allHeaders = headers.map { (name: $0.0, value: $0.1) }
        switch token {
        case .some(.none): allHeaders.append((name: "Authorization", value: "Api \(self.token)"))
        case .some(.some(let explicit)): allHeaders.append((name: "Authorization", value: "Api \(explicit)"))
        case .none: break
        }
        if body != nil { allHeaders.append((name: "Content-Type", value: "application/json")) }
        return try RawHTTPClient.send(
            port: port, method: method, target: target, headers: allHeaders, body: body.map { Array($0.utf8) },
            timeoutSeconds: 30)
    }

    /// POSTs a JSON object to the Create endpoint.
    public func post(_ body: JSONObject, path: String = "/api/live_activity_schemas") throws -> RawHTTPResponse {
        try request("POST", path, body: JSONWriter.string(.object(body)))
    }

    /// Publishes `schema` under `attributesType`, at `version` or the next free one.
    public func publish(_ attributesType: String, _ schema: String, version: Int? = nil) throws -> RawHTTPResponse {
        var body: JSONObject = [
            "application": .string(code), "attributesType": .string(attributesType), "jsonSchema": .string(schema),
        ]
        if let version { body["version"] = .number(String(version)) }
        return try post(body)
    }

    /// The `schemas` of a list call.
    public func list(query: String = "") throws -> [JSONValue] {
        let response = try request("GET", "/api/live_activity_schemas?application=\(code)\(query)")
        guard let schemas = try response.json()["schemas"]?.arrayValue else {
            throw RawHTTPError("list failed: \(response.status) \(response.bodyText)")
        }
        return schemas
    }
}

extension RawHTTPResponse {
    /// The body parsed with the service's own parser.
    public func json() throws -> JSONValue {
        try JSONParser.parse(body)
    }
}

extension AdminStore {
    /// A new account with one application (coded `applicationCode`, or a generated code) and
    /// one live token, made with the same SQL as `schema-registry admin`, for talking to a
    /// server on `port`.
    public func newTenant(port: Int, applicationCode: String? = nil) throws -> Tenant {
        let account = try createAccount(name: "test")
        let code = try createApplication(accountID: account, code: applicationCode, name: "test app")
        let token = APIToken.generate()
        let tokenID = try issueToken(accountID: account, tokenHash: token.hash)
        return Tenant(port: port, code: code, token: token.secret, accountID: account, tokenID: tokenID)
    }

    /// Another token of `tenant`'s account, issued with `terms`, as a tenant on the same
    /// application.
    public func tenant(like tenant: Tenant, terms: TokenTerms) throws -> Tenant {
        let token = APIToken.generate()
        let id = try issueToken(accountID: tenant.accountID, tokenHash: token.hash, terms: terms)
        return Tenant(port: tenant.port, code: tenant.code, token: token.secret, accountID: tenant.accountID, tokenID: id)
    }
}

extension Tenant {
    /// The same token addressing another application code.
    public func on(application code: String) -> Tenant {
        Tenant(port: port, code: code, token: token, accountID: accountID, tokenID: tokenID)
    }
}
