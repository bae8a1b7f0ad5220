import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// A request that meets a database failure is logged once, at level error, with its request id
/// (the one the response carries), its route and the failure's cause (SQLSTATE, statement's
/// name, the server's message); the response shows none of that, and no secret reaches the log.
/// A background job that fails logs its cause too.
@Suite struct FailureLogTests {
    /// The server's reads wait past its statement timeout while a test session holds `table`.
    private func holding(_ table: String, in database: ServiceDatabase, _ body: () throws -> Void) throws {
        let holder = try PGConnection.connect(PostgresConfig(databaseURL: database.url))
        try holder.simpleQuery("BEGIN; LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.simpleQuery("ROLLBACK") }
        try body()
    }

    @Test func aDatabaseFailureIsLoggedOnceWithTheRequestIdAndItsCauseAndNeverShown() throws {
        let database = try ServiceDatabase.make()
        let password = "pw-\(UUID().uuidString)"
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.tcpURL(password: password), [
            "REGISTRY_DB_STATEMENT_TIMEOUT_MS": "200", "REGISTRY_LOG_LEVEL": "debug",
        ]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)

        var failed: RawHTTPResponse?
        try holding("schema_versions", in: database) {
            failed = try tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/2?application=\(tenant.code)")
        }
        let response = try #require(failed)
        #expect(response.status == 503, "\(response.bodyText)")
        #expect(try response.json() == ["code": .number("14"), "message": "database unavailable", "details": []])
        let requestID = try #require(response.header("x-request-id"))
        let shown = response.bodyText + response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        for hidden in ["57014", "store_get_version", "statement", "canceling"] {
            #expect(!shown.contains(hidden), "the response shows \(hidden)")
        }

        let line = try #require(
            server.waitForLog { $0["request_id"]?.stringValue == requestID && $0["msg"]?.stringValue == "request failed" },
            "\(server.diagnostics)")
        #expect(line["level"]?.stringValue == "error")
        #expect(line["route"]?.stringValue == "/api/live_activity_schemas/{attributesType}/{version}")
        #expect(line["status"]?.int == 503)
        #expect(line["code"]?.int == 14)
        #expect(line["error"]?.stringValue == "database unavailable")
        #expect(line["cause_kind"]?.stringValue == "database_error")
        #expect(line["cause_sqlstate"]?.stringValue == "57014")
        #expect(line["cause_statement"]?.stringValue == "store_get_version")
        #expect(line["cause"]?.stringValue == "canceling statement due to statement timeout")
        #expect(line["application"]?.stringValue == tenant.code)

        // The same read without the lock succeeds (404: there is no version 2), logged at info.
        let after = try tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/2?application=\(tenant.code)")
        #expect(after.status == 404)
        let afterID = try #require(after.header("x-request-id"))
        let afterLine = try #require(server.waitForLog { $0["request_id"]?.stringValue == afterID })
        #expect(afterLine["level"]?.stringValue == "info" && afterLine["msg"]?.stringValue == "request")
        #expect(afterLine["cause_sqlstate"] == nil && afterLine["code"] == nil, "a 4xx is no failure of the server")

        server.send(SIGTERM)
        #expect(server.waitForExit(timeoutSeconds: 15) == 0, "\(server.diagnostics)")
        let lines = server.logObjects.filter { $0["request_id"]?.stringValue == requestID }
        #expect(lines.count == 1, "logged once: \(lines)")
        let everything = server.stdout + server.stderr
        for secret in [tenant.token, String(tenant.token.dropFirst(4)), password] {
            #expect(!everything.contains(secret), "the logs contain \(secret)")
        }
    }

    @Test func aBackgroundJobLogsTheCauseOfItsFailure() throws {
        let database = try ServiceDatabase.make()
        _ = try database.makeTenant(port: 0)
        try holding("audit_events", in: database) {
            let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, [
                "REGISTRY_DB_STATEMENT_TIMEOUT_MS": "200", "REGISTRY_AUDIT_RETENTION_DAYS": "7",
            ]))
            defer { server.kill() }
            // The first pruning pass runs a few seconds after start.
            let line = try #require(
                server.waitForLog(timeoutSeconds: 20) { $0["msg"]?.stringValue == "could not prune audit events" },
                "\(server.diagnostics)")
            #expect(line["level"]?.stringValue == "warning")
            #expect(line["cause_sqlstate"]?.stringValue == "57014")
            #expect(line["cause_statement"]?.stringValue == "audit_prune_batch")
            #expect(line["cause"]?.stringValue == "canceling statement due to statement timeout")
            #expect(line["error"]?.stringValue == "database unavailable")
        }
    }
}
