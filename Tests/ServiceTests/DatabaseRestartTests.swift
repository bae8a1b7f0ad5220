import Foundation
import Testing
import TestSupport

/// A database restart or outage costs a few 503s — answered quickly, never a hang — and the
/// same server process serves again afterwards, without being restarted.
@Suite struct DatabaseRestartTests {
    /// A private cluster (so it can be stopped), a migrated database on it, and a server over TCP.
    private func setUp() throws -> (TestPostgres, ServiceDatabase, ServiceProcess, Tenant) {
        let cluster = try TestPostgres.start()
        do {
            let database = try ServiceDatabase.make(on: cluster)
            let server = try ServiceProcess.serve(
                environment: serveEnvironment("postgresql://postgres@127.0.0.1:\(cluster.port)/\(database.name)"))
            let tenant = try database.makeTenant(port: server.port)
            return (cluster, database, server, tenant)
        } catch {
            try? cluster.stop()
            throw error
        }
    }

    /// Retries `call` until it answers `status` or `seconds` pass; each attempt must itself be
    /// quick. Returns the last answer.
    private func eventually(
        _ status: Int, within seconds: Double, _ call: () throws -> RawHTTPResponse
    ) -> (RawHTTPResponse?, Duration) {
        let clock = ContinuousClock()
        let started = clock.now
        var last: RawHTTPResponse?
        while clock.now - started < .seconds(seconds) {
            let attempt = clock.now
            last = try? call()
            #expect(clock.now - attempt < .seconds(10), "one attempt took \(clock.now - attempt)")
            if last?.status == status { break }
            usleep(100_000)
        }
        return (last, clock.now - started)
    }

    @Test func sameServerProcessAnswersAgainAfterTheDatabaseRestarts() throws {
        let (cluster, _, server, tenant) = try setUp()
        defer { try? cluster.stop() }
        defer { server.kill() }
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        #expect(try tenant.list().count == 1)

        try cluster.restart()

        let (published, took) = eventually(200, within: 10) { try tenant.publish("FlightAttributes", flightSchema()) }
        #expect(published?.status == 200, "after restart: \(published?.bodyText ?? "no answer")\n\(server.diagnostics)")
        #expect(published?.schemaVersion == 2)
        #expect(took < .seconds(5), "answered again \(took) after the restart")
        #expect(!server.hasExited, "the server kept running: \(server.diagnostics)")
        // Reads and readiness are back too, every pooled session having been replaced.
        let listed = onThreads(8) { _ in try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)") }
        #expect(listed.allSatisfy { (try? $0.get())?.status == 200 }, "\(listed.map { (try? $0.get())?.status ?? -1 })")
        #expect(try RawHTTPClient.send(port: server.port, target: "/readyz").status == 200)
    }

    @Test func whileTheDatabaseIsDownCallsGet503QuicklyAndOnlyReadinessFails() throws {
        let (cluster, _, server, tenant) = try setUp()
        defer { try? cluster.stop() }
        defer { server.kill() }
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)

        try cluster.stop()

        let clock = ContinuousClock()
        let calls: [(String, () throws -> RawHTTPResponse)] = [
            ("publish", { try tenant.publish("FlightAttributes", flightSchema()) }),
            ("list", { try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)") }),
            ("get", { try tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/99?application=\(tenant.code)") }),
            ("delete", { try tenant.request("DELETE", "/api/live_activity_schemas/FlightAttributes/1?application=\(tenant.code)") }),
        ]
        for (name, call) in calls {
            let started = clock.now
            let response = try call()
            let elapsed = clock.now - started
            #expect(response.status == 503, "\(name): \(response.status) \(response.bodyText)")
            #expect(response.errorCode == 14, "\(name): \(response.bodyText)")
            #expect(response.header("content-type")?.hasPrefix("application/json") == true, "\(name)")
            #expect(elapsed < .seconds(10), "\(name) took \(elapsed)")
        }
        // Many callers at once: all 503, none hangs.
        let started = clock.now
        let parallel = onThreads(12) { _ in try tenant.publish("FlightAttributes", flightSchema()) }
        #expect(parallel.allSatisfy { (try? $0.get())?.status == 503 }, "\(parallel.map { (try? $0.get())?.status ?? -1 })")
        #expect(clock.now - started < .seconds(10), "12 parallel calls took \(clock.now - started)")

        let readyStarted = clock.now
        let ready = try RawHTTPClient.send(port: server.port, target: "/readyz", timeoutSeconds: 15)
        #expect(ready.status == 503, "\(ready.bodyText)")
        #expect(try ready.json()["reason"]?.stringValue?.isEmpty == false, "a JSON reason: \(ready.bodyText)")
        #expect(clock.now - readyStarted < .seconds(10))
        let health = try RawHTTPClient.send(port: server.port, target: "/healthz", timeoutSeconds: 5)
        #expect(health.status == 200, "the process is alive: \(health.bodyText)")
        #expect(!server.hasExited, "\(server.diagnostics)")

        try cluster.start()

        let (published, _) = eventually(200, within: 10) { try tenant.publish("FlightAttributes", flightSchema()) }
        #expect(published?.status == 200, "\(published?.bodyText ?? "no answer")\n\(server.diagnostics)")
        #expect(published?.schemaVersion == 2, "failed publishes used no version number")
        let (readyAgain, _) = eventually(200, within: 5) { try RawHTTPClient.send(port: server.port, target: "/readyz") }
        #expect(readyAgain?.status == 200)
    }
}
