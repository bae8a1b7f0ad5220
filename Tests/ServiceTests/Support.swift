import Foundation
import Registry
import RegistryPostgres
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh database for one test, on the shared cluster unless a private one is given.
struct ServiceDatabase: Sendable {
    let cluster: TestPostgres
    /// Over the cluster's unix socket.
    let url: String
    let name: String

    static func make(migrated: Bool = true, on cluster: TestPostgres? = nil) throws -> ServiceDatabase {
        let cluster = try cluster ?? TestPostgres.shared
        let url = try cluster.makeDatabase(migrated: migrated)
        // postgresql:///NAME?host=…
        let afterScheme = url.dropFirst("postgresql:///".count)
        let name = String(afterScheme.prefix { $0 != "?" })
        return ServiceDatabase(cluster: cluster, url: url, name: name)
    }

    /// The same database over TCP, with a password in the URL (the test cluster trusts any).
    func tcpURL(password: String) -> String {
        "postgresql://postgres:\(password)@127.0.0.1:\(cluster.port)/\(name)"
    }

    /// Runs one statement in a session of its own and returns the rows.
    func query(_ sql: String) throws -> [PGRow] {
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url))
        return try connection.simpleQuery(sql).rows
    }

    /// A new tenant of this database (`AdminStore.newTenant`), for talking to a server on `port`.
    func makeTenant(port: Int) throws -> Tenant {
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: url, poolSize: 1))
        defer { pool.close() }
        return try AdminStore(pool: pool).newTenant(port: port)
    }
}

/// The environment of a `serve` process on `databaseURL`: an ephemeral port (read back from the
/// start-up line) and a few workers, so that many servers fit on a small machine.
func serveEnvironment(_ databaseURL: String, _ extra: [String: String] = [:]) -> [String: String] {
    var overrides = ["DATABASE_URL": databaseURL, "REGISTRY_LISTEN": "127.0.0.1:0", "REGISTRY_HTTP_WORKERS": "4"]
    for (key, value) in extra { overrides[key] = value }
    return ServiceProcess.environment(overrides)
}




func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A small valid schema; `marker` lands in a description so tests can look for it in logs.
func flightSchema(marker: String = "") -> String {
    #"{"type":"object","description":"\#(marker)","properties":{"gate":{"type":"string"}},"#
        + #""attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#
}

extension RawHTTPResponse {
    /// `schema.version` of a Create or Get answer.
    var schemaVersion: Int? { (try? json())?["schema"]?["version"]?.integerLexemeValue }
    /// `code` of an error body.
    var errorCode: Int? { (try? json())?["code"]?.integerLexemeValue }
}

extension JSONValue {
    var int: Int? { integerLexemeValue }
}
