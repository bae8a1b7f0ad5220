import Foundation
import Registry
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// A migrated database of its own, with one account and one application, for a single test.
struct Fixture {
    let url: String
    let pool: ConnectionPool
    let store: PostgresSchemaStore
    let admin: AdminStore
    let accountID: Int64
    let application: Application

    init(cluster: TestPostgres? = nil, poolSize: Int = 4, acquireTimeout: Duration = .seconds(10)) throws {
        let cluster = try cluster ?? TestPostgres.shared
        url = try cluster.makeDatabase()
        pool = ConnectionPool(
            config: PostgresConfig(databaseURL: url, poolSize: poolSize, acquireTimeout: acquireTimeout))
        store = PostgresSchemaStore(pool: pool)
        admin = AdminStore(pool: pool)
        accountID = try admin.createAccount(name: "Test account")
        application = try Self.makeApplication(admin: admin, store: store, accountID: accountID)
    }

    static func makeApplication(admin: AdminStore, store: PostgresSchemaStore, accountID: Int64) throws -> Application {
        let code = try admin.createApplication(accountID: accountID, name: "Test app")
        return try #require(try store.application(code: code))
    }

    @discardableResult
    func publish(_ type: String, _ version: VersionRequest = .nextFree, _ schema: String = #"{"type":"object"}"#)
        throws -> SchemaVersion
    {
        try store.publish(application: application, attributesType: type, version: version, jsonSchema: schema)
    }
}

/// Runs `body` on `count` OS threads released at the same moment, the way HTTP workers call the
/// store, and returns each thread's outcome in index order.
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
    let results = Mutex<[Int: Result<T, any Error>]>([:])
    let done = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            gate.wait()
            let result = Result { try body(index) }
            results.withLock { $0[index] = result }
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { gate.signal() }
    done.wait()
    return results.withLock { all in (0..<count).map { all[$0]! } }
}

/// The RegistryError a call failed with, or nil when it succeeded or failed otherwise.
func registryError<T>(_ result: Result<T, any Error>) -> RegistryError? {
    if case .failure(let error) = result { return error as? RegistryError }
    return nil
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
