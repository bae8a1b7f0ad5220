import Foundation
import Registry
@testable import RegistryPostgres
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
        return try #require(try store.pool.run(PostgresSchemaStore.applicationRead(code: code)))
    }

    @discardableResult
    func publish(_ type: String, _ version: VersionRequest = .nextFree, _ schema: String = #"{"type":"object"}"#)
        async throws -> SchemaVersion
    {
        try await publication(type, version, schema).schema
    }

    /// A publish by the admin CLI with what it was compared with, comparing at most `limit`
    /// earlier texts.
    func publication(
        _ type: String, _ version: VersionRequest = .nextFree, _ schema: String = #"{"type":"object"}"#, in application: Application? = nil,
        limit: Int = 100
    ) async throws -> Publication {
        try await store.publish(
            application: application ?? self.application, attributesType: type, version: version, jsonSchema: schema, by: .cli,
            comparing: Comparison(limit: limit))
    }

    /// What a version published now would be compared with (the dry run's read).
    func basis(_ type: String, below version: Int32? = nil, limit: Int = 100) async throws -> ComparisonBasis {
        try await store.comparisonBasis(application: application, attributesType: type, below: version, comparing: Comparison(limit: limit))
    }
}


/// The RegistryError a call failed with, or nil when it succeeded or failed otherwise.
func registryError<T>(_ result: Result<T, any Error>) -> RegistryError? {
    if case .failure(let error) = result { return error as? RegistryError }
    return nil
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
