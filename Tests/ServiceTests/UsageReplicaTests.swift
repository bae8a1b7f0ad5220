import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Version usage across real processes: two replicas on one database count reads in memory,
/// and every read reaches the database exactly once, through a timer flush or the flush of a
/// clean shutdown; `admin usage` then reports them.
@Suite struct UsageReplicaTests {
    static func replicas(_ database: ServiceDatabase, flushMilliseconds: Int) throws -> [ServiceProcess] {
        let environment = serveEnvironment(database.url, ["REGISTRY_USAGE_FLUSH_MS": String(flushMilliseconds)])
        let first = try ServiceProcess.serve(environment: environment)
        do {
            return [first, try ServiceProcess.serve(environment: environment)]
        } catch {
            first.kill()
            throw error
        }
    }

    /// `count` GETs of version 1 (and of `latest`) from 8 threads, alternating replicas, each
    /// thread on its own keep-alive connection; all must succeed.
    static func read(_ tenant: Tenant, ports: [Int], count: Int) {
        let results = onThreads(8) { thread in
            let session = TenantSession(tenant.on(port: ports[thread % 2]))
            var answered = 0
            for read in stride(from: thread, to: count, by: 8) {
                let target = read % 3 == 0 ? "latest" : "1"
                let response = try session.request("GET", "/api/live_activity_schemas/Flight/\(target)?application=\(tenant.code)")
                if response.status == 200 { answered += 1 }
            }
            return answered
        }
        let answered = results.compactMap { try? $0.get() }.reduce(0, +)
        #expect(answered == count, "\(results)")
    }

    static func storedReads(_ database: ServiceDatabase) throws -> Int {
        let rows = try database.query("SELECT coalesce(sum(reads), 0)::bigint FROM version_reads")
        return Int(try rows[0].int64(0))
    }

    static func stop(_ servers: [ServiceProcess]) {
        for server in servers { server.send(SIGTERM) }
        for server in servers {
            #expect(server.waitForExit(timeoutSeconds: 20) == 0, "\(server.diagnostics)")
        }
    }

    @Test func concurrentReadsOnTwoReplicasAreCountedExactlyAcrossAFlushAndACleanRestart() throws {
        let database = try ServiceDatabase.make()
        // Flushed by the timer: the database reaches the exact count while both still run.
        var servers = try Self.replicas(database, flushMilliseconds: 200)
        let tenant = try database.makeTenant(port: servers[0].port)
        #expect(try tenant.publish("Flight", flightSchema()).status == 200)
        Self.read(tenant, ports: servers.map(\.port), count: 200)
        let flushed = try eventually(seconds: 10, { try Self.storedReads(database) }, until: { $0 >= 200 })
        #expect(flushed == 200)
        Self.stop(servers)
        #expect(try Self.storedReads(database) == 200, "nothing counted twice at shutdown")

        // A timer that never fires in the test: only the shutdown flush can store these.
        servers = try Self.replicas(database, flushMilliseconds: 60_000)
        Self.read(tenant, ports: servers.map(\.port), count: 120)
        #expect(try Self.storedReads(database) == 200, "not flushed before the shutdown")
        Self.stop(servers)
        #expect(try Self.storedReads(database) == 320)

        // A restarted replica reports everything, attributed to the one token.
        let restarted = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { restarted.kill() }
        let response = try tenant.on(port: restarted.port).request(
            "GET", "/api/live_activity_schemas/Flight/1/usage?application=\(tenant.code)")
        #expect(response.status == 200, "\(response.bodyText)")
        let usage = try #require(try response.json()["usage"])
        #expect(usage["total_reads"]?.int == 320)
        #expect(usage["readers"]?.arrayValue?.map { $0["token_id"]?.int } == [Int(tenant.tokenID)])
        #expect(usage["readers"]?.arrayValue?.first?["reads"]?.int == 320)

        // `admin usage` prints the same report from the database.
        let printed = try ServiceProcess.run(
            ["admin", "usage", "--application", tenant.code, "Flight", "1", "--days", "7"],
            environment: ServiceProcess.environment(["DATABASE_URL": database.url]))
        #expect(printed.status == 0, "\(printed)")
        #expect(printed.stdoutLines.count == 1, "\(printed)")
        let line = try #require(printed.stdoutLines.first)
        let report = try JSONParser.parse(Array(line.utf8))
        #expect(report["usage"]?["total_reads"]?.int == 320, "\(line)")
        #expect(report["usage"]?["readers"]?.arrayValue?.first?["token_name"]?.stringValue == "")
        let perType = try ServiceProcess.run(
            ["admin", "usage", "--application", tenant.code, "Flight"], environment: ServiceProcess.environment(["DATABASE_URL": database.url]))
        let typeReport = try JSONParser.parse(Array((perType.stdoutLines.first ?? "").utf8))
        #expect(typeReport["usage"]?["readers"]?.arrayValue?.first?["versions"]?.arrayValue?.first?["reads"]?.int == 320, "\(perType)")
    }

    @Test func adminUsageRefusesBadArgumentsWithExitStatus2() throws {
        let database = try ServiceDatabase.make()
        let environment = ServiceProcess.environment(["DATABASE_URL": database.url])
        let cases: [([String], String)] = [
            (["admin", "usage", "Flight"], "--application is required"),
            (["admin", "usage", "--application", "XXXXX-XXXXX"], "TYPE is required"),
            (["admin", "usage", "--application", "XXXXX-XXXXX", "Flight", "zero"], "VERSION must be an integer"),
            (["admin", "usage", "--application", "XXXXX-XXXXX", "Flight", "1", "2"], "unexpected argument '2'"),
            (["admin", "usage", "--application", "XXXXX-XXXXX", "Flight", "--days", "0"], "--days must be an integer from 1 to 3660"),
        ]
        for (arguments, message) in cases {
            let result = try ServiceProcess.run(arguments, environment: environment)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let unknown = try ServiceProcess.run(["admin", "usage", "--application", "NONE1-NONE2", "Flight"], environment: environment)
        #expect(unknown.status == 1 && unknown.stderr.contains("no application NONE1-NONE2"), "\(unknown)")
    }
}
