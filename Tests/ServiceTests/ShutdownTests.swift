import Foundation
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM/SIGINT: stop accepting, readiness 503, in-flight requests finish, exit 0.
@Suite struct ShutdownTests {
    /// Requests running on threads of their own, to be collected later.
    final class Background: Sendable {
        private let results = Mutex<[Int: Result<RawHTTPResponse, any Error>]>([:])
        private let done = DispatchGroup()
        let count: Int

        init(_ count: Int, _ body: @escaping @Sendable (Int) throws -> RawHTTPResponse) {
            self.count = count
            for index in 0..<count {
                done.enter()
                Thread {
                    let result = Result { try body(index) }
                    self.results.withLock { $0[index] = result }
                    self.done.leave()
                }.start()
            }
        }

        /// Every result, or nil if some are still running after `seconds`.
        func wait(seconds: Double) -> [Result<RawHTTPResponse, any Error>]? {
            guard done.wait(timeout: .now() + seconds) == .success else { return nil }
            return results.withLock { all in (0..<count).map { all[$0]! } }
        }
    }

    /// Holds the row lock every publish of `attributesType` takes first, in a transaction left
    /// open, so publishes of that type block inside the server until `release`.
    final class RowLock {
        private let connection: PGConnection

        init(_ database: ServiceDatabase, attributesType: String) throws {
            connection = try PGConnection.connect(PostgresConfig(databaseURL: database.url))
            try connection.simpleQuery("BEGIN")
            let locked = try connection.simpleQuery(
                "SELECT last_version FROM schema_version_counters WHERE attributes_type = '\(attributesType)' FOR UPDATE")
            guard locked.rows.count == 1 else { throw ServiceProcessError("no counter row for \(attributesType)") }
        }

        func release() throws { try connection.simpleQuery("ROLLBACK") }
    }

    /// Sessions of `database` waiting for a lock right now.
    private func sessionsWaitingForLocks(_ database: ServiceDatabase) -> Int {
        let rows = try? database.query(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database.name)' AND wait_event_type = 'Lock'")
        return rows.flatMap { try? $0.first?.int64(0) }.map(Int.init) ?? -1
    }

    @Test func sigtermLetsInFlightPublishesFinishThenExitsZero() throws {
        let database = try ServiceDatabase.make()
        let grace = 10.0
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, [
            "REGISTRY_SHUTDOWN_GRACE_SECONDS": String(Int(grace)),
            "REGISTRY_HTTP_WORKERS": "16",
            // Longer than the lock is held, so the blocked statements wait rather than time out
            // (and below the client-side response timeout, see the test after this one).
            "REGISTRY_DB_STATEMENT_TIMEOUT_MS": "7000",
        ]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)

        let lock = try RowLock(database, attributesType: "FlightAttributes")
        defer { try? lock.release() }
        // Publishes one by one until three are blocked inside the server. The daemons share the
        // port through SO_REUSEPORT, so the kernel may queue a connection at a daemon that is
        // already blocked: such a request never reaches a handler before the lock is released,
        // is not in flight, and is left out of what this test asserts.
        var requests: [Background] = []
        var blocked: [Int] = []
        while blocked.count < 3 && requests.count < 8 {
            requests.append(Background(1) { _ in try tenant.publish("FlightAttributes", flightSchema()) })
            if waitUntil(timeoutSeconds: 1, { sessionsWaitingForLocks(database) == blocked.count + 1 }) {
                blocked.append(requests.count - 1)
            }
        }
        try #require(blocked.count == 3, "three publishes blocked on the row lock\n\(server.diagnostics)")

        let clock = ContinuousClock()
        let signalled = clock.now
        server.send(SIGTERM)
        let shuttingDown = server.waitForLog { $0["msg"]?.stringValue == "shutting down" }
        #expect(shuttingDown != nil, "\(server.diagnostics)")
        #expect(shuttingDown?["in_flight"]?.int == 3, "\(server.diagnostics)")

        // A new connection is refused, or if it gets in, readiness says 503.
        do {
            let ready = try RawHTTPClient.send(port: server.port, target: "/readyz", timeoutSeconds: 3)
            #expect(ready.status == 503, "readiness during shutdown: \(ready.bodyText)")
        } catch let error as RawHTTPError {
            #expect(!error.description.contains("timed out"), "a new connection must not hang: \(error)")
        }

        // The process waits for the blocked requests instead of exiting under them.
        usleep(300_000)
        #expect(!server.hasExited, "exited while requests were in flight: \(server.diagnostics)")
        try lock.release()

        var versions: [Int] = []
        for index in blocked {
            let results = try #require(requests[index].wait(seconds: grace), "in-flight publish \(index) did not finish")
            switch results[0] {
            case .success(let response):
                #expect(response.status == 200, "\(response.status) \(response.bodyText)")
                versions += response.schemaVersion.map { [$0] } ?? []
            case .failure(let error):
                Issue.record("an in-flight publish lost its answer: \(error)\n\(server.diagnostics)")
            }
        }
        #expect(versions.sorted() == [2, 3, 4], "\(server.diagnostics)")
        let status = server.waitForExit(timeoutSeconds: grace)
        #expect(status == 0, "\(server.diagnostics)")
        #expect(clock.now - signalled < .seconds(grace), "exited \(clock.now - signalled) after SIGTERM")
        #expect(server.logObjects.last?["msg"]?.stringValue == "stopped", "\(server.diagnostics)")
        for request in requests { _ = request.wait(seconds: 5) }
        // What was answered 200 is in the database.
        let stored = try database.query(
            "SELECT version FROM schema_versions WHERE attributes_type = 'FlightAttributes' ORDER BY version")
        #expect(try stored.map { try $0.string(0) } == ["1", "2", "3", "4"])
    }

    @Test func aPublishBlockedLongerThanEightSecondsWithinTheStatementTimeoutSucceeds() throws {
        // REGISTRY_DB_STATEMENT_TIMEOUT_MS allows up to an hour; a statement that PostgreSQL is
        // still allowed to run must not be abandoned by the client, and a request answered 503
        // must not have published anything.
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, [
            "REGISTRY_DB_STATEMENT_TIMEOUT_MS": "20000",
        ]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)

        let lock = try RowLock(database, attributesType: "FlightAttributes")
        defer { try? lock.release() }
        let blocked = Background(1) { _ in try tenant.publish("FlightAttributes", flightSchema()) }
        #expect(waitUntil(timeoutSeconds: 5) { sessionsWaitingForLocks(database) == 1 })
        usleep(9_000_000)
        try lock.release()

        let result = try #require(blocked.wait(seconds: 15)?.first, "the publish did not finish")
        let response = try result.get()
        #expect(response.status == 200, "blocked 9 s of an allowed 20 s: \(response.status) \(response.bodyText)\n\(server.diagnostics)")
        usleep(200_000)
        let stored = try database.query("SELECT count(*) FROM schema_versions WHERE attributes_type = 'FlightAttributes'")
        let count = try stored.first?.string(0)
        if response.status == 200 {
            #expect(count == "2")
        } else {
            #expect(count == "1", "answered \(response.status) yet version 2 was published")
        }
    }

    @Test func sigintOnAnIdleServerExitsZeroPromptly() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        #expect(try RawHTTPClient.send(port: server.port, target: "/readyz").status == 200)
        server.send(SIGINT)
        let status = server.waitForExit(timeoutSeconds: 5)
        #expect(status == 0, "\(server.diagnostics)")
        #expect(throws: (any Error).self, "the port is closed") {
            try RawHTTPClient.send(port: server.port, target: "/healthz", timeoutSeconds: 2)
        }
    }

    @Test func aRequestStillBlockedWhenTheGracePeriodEndsDoesNotKeepTheProcessAlive() throws {
        let database = try ServiceDatabase.make()
        let grace = 1.0
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, [
            "REGISTRY_SHUTDOWN_GRACE_SECONDS": String(Int(grace)),
            "REGISTRY_DB_STATEMENT_TIMEOUT_MS": "30000",
        ]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)

        let lock = try RowLock(database, attributesType: "FlightAttributes")
        defer { try? lock.release() }
        let stuck = Background(1) { _ in try tenant.publish("FlightAttributes", flightSchema()) }
        #expect(waitUntil(timeoutSeconds: 10) { sessionsWaitingForLocks(database) == 1 })

        let clock = ContinuousClock()
        let signalled = clock.now
        server.send(SIGTERM)
        let status = server.waitForExit(timeoutSeconds: grace + 4)
        let took = clock.now - signalled
        try lock.release()
        _ = stuck.wait(seconds: 10)
        #expect(status != nil, "still running \(took) after SIGTERM with a \(grace) s grace period\n\(server.diagnostics)")
        #expect(took < .seconds(grace + 3), "exited \(took) after SIGTERM")
    }
}
