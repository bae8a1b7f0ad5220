import Foundation
import Registry
import Testing
import TestSupport

/// Two server processes on one database, as replicas behind a gateway: version allocation is
/// race-free across processes, not only across threads of one.
@Suite struct ReplicaTests {
    /// Two replicas with production worker and pool sizes.
    static func replicas(_ database: ServiceDatabase) throws -> [ServiceProcess] {
        let environment = serveEnvironment(database.url, ["REGISTRY_HTTP_WORKERS": "16"])
        let first = try ServiceProcess.serve(environment: environment)
        do {
            return [first, try ServiceProcess.serve(environment: environment)]
        } catch {
            first.kill()
            throw error
        }
    }

    /// POST request lines each process logged.
    private func publishesLogged(by process: ServiceProcess) -> Int {
        process.logObjects.filter { $0["msg"]?.stringValue == "request" && $0["method"]?.stringValue == "POST" }.count
    }

    @Test func parallelCreatesWithoutVersionOverTwoProcessesGetVersions1Through32() throws {
        let database = try ServiceDatabase.make()
        let servers = try Self.replicas(database)
        defer { servers.forEach { $0.kill() } }
        let tenant = try database.makeTenant(port: servers[0].port)
        let ports = servers.map(\.port)

        let results = onThreads(32) { index in
            try tenant.on(port: ports[index % 2]).publish("FlightAttributes", flightSchema())
        }
        var versions: [Int] = []
        for result in results {
            switch result {
            case .success(let response):
                #expect(response.status == 200, "\(response.bodyText)")
                if let version = response.schemaVersion { versions.append(version) }
            case .failure(let error):
                Issue.record("request failed: \(error)")
            }
        }
        #expect(versions.sorted() == Array(1...32))
        #expect(publishesLogged(by: servers[0]) == 16, "\(servers[0].diagnostics)")
        #expect(publishesLogged(by: servers[1]) == 16, "\(servers[1].diagnostics)")
        // Both replicas list the same 32 versions, newest first.
        for port in ports {
            let listed = try tenant.on(port: port).list(query: "&attributesType=FlightAttributes")
            #expect(listed.compactMap { $0["version"]?.int } == Array((1...32).reversed()))
        }
    }

    @Test func parallelCreatesOfOneExplicitVersionOverTwoProcessesGiveOne200AndFifteen409() throws {
        let database = try ServiceDatabase.make()
        let servers = try Self.replicas(database)
        defer { servers.forEach { $0.kill() } }
        let tenant = try database.makeTenant(port: servers[0].port)
        let ports = servers.map(\.port)

        let results = onThreads(16) { index in
            try tenant.on(port: ports[index % 2]).publish("FlightAttributes", flightSchema(marker: "writer \(index)"), version: 7)
        }
        let statuses = results.map { (try? $0.get())?.status ?? -1 }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == 409 }.count == 15, "\(statuses)")
        for case .success(let response) in results where response.status == 409 {
            #expect(response.errorCode == 6, "\(response.bodyText)")
        }
        #expect(publishesLogged(by: servers[0]) == 8 && publishesLogged(by: servers[1]) == 8)
        // The winner's text is what both replicas serve.
        let winner = try #require(results.compactMap { try? $0.get() }.first { $0.status == 200 })
        let stored = try #require(try winner.json()["schema"]?["json_schema"]?.stringValue)
        for port in ports {
            let got = try tenant.on(port: port).request(
                "GET", "/api/live_activity_schemas/FlightAttributes/7?application=\(tenant.code)")
            #expect(got.status == 200)
            #expect(try got.json()["schema"]?["json_schema"]?.stringValue == stored)
        }
        // The next free version after an explicit 7 is 8, whichever replica is asked.
        #expect(try tenant.on(port: ports[1]).publish("FlightAttributes", flightSchema()).schemaVersion == 8)
    }

    /// A version disabled through one process is refused by the other, whose caches held its
    /// body, its form and `latest`, as soon as the disable is answered: the answer waits until
    /// both processes applied it (`propagation`), so no wait is needed in between. Restoring
    /// brings all three back the same way.
    @Test func aVersionDisabledOnOneProcessIsRefusedByTheOtherAsSoonAsItIsAnsweredAndRestoredEverywhere() throws {
        let database = try ServiceDatabase.make()
        let servers = try Self.replicas(database)
        defer { servers.forEach { $0.kill() } }
        let tenant = try database.makeTenant(port: servers[0].port)
        let other = tenant.on(port: servers[1].port)
        for _ in 1...2 { #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200) }
        let paths = ["FlightAttributes/2", "FlightAttributes/2/form"].map { "/api/live_activity_schemas/\($0)?application=\(tenant.code)" }
        let latest = "/api/live_activity_schemas/FlightAttributes/latest?application=\(tenant.code)"
        func latestVersion() throws -> Int? { try other.request("GET", latest).json()["schema"]?["version"]?.int }
        for path in paths { #expect(try eventually({ try other.request("GET", path).status }, until: { $0 == 200 }) == 200) }
        #expect(try latestVersion() == 2)
        let everywhere: JSONValue = ["replicas": 2, "applied": 2, "complete": true]

        let disabled = try tenant.request(
            "POST", "/api/live_activity_schemas/FlightAttributes/2:disable?application=\(tenant.code)", body: #"{"reason":"withdrawn"}"#)
        #expect(disabled.status == 200, "\(disabled.bodyText)")
        #expect(try disabled.json()["propagation"] == everywhere, "\(disabled.bodyText)")
        for path in paths { #expect(try other.request("GET", path).status == 404, "\(path) still served after the answer") }
        #expect(try latestVersion() == 1)

        let restored = try tenant.request("POST", "/api/live_activity_schemas/FlightAttributes/2:restore?application=\(tenant.code)", body: "{}")
        #expect(restored.status == 200)
        #expect(try restored.json()["propagation"] == everywhere, "\(restored.bodyText)")
        for path in paths { #expect(try other.request("GET", path).status == 200, "\(path) still refused after the answer") }
        #expect(try latestVersion() == 2)
    }

    /// A process that stops answering (here frozen by SIGSTOP: its follower cannot read) is
    /// waited for until REGISTRY_PROPAGATION_TIMEOUT_MS, and the answer says the change has not
    /// reached it; once it runs again it catches up and the next change is everywhere.
    @Test func aFrozenProcessMakesTheAnswerIncompleteAfterTheTimeoutAndCatchesUpAfterwards() throws {
        let database = try ServiceDatabase.make()
        let environment = serveEnvironment(database.url, ["REGISTRY_PROPAGATION_TIMEOUT_MS": "500"])
        let first = try ServiceProcess.serve(environment: environment)
        defer { first.kill() }
        let frozen = try ServiceProcess.serve(environment: environment)
        defer { frozen.kill() }
        let tenant = try database.makeTenant(port: first.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        let path = "/api/live_activity_schemas/FlightAttributes/1?application=\(tenant.code)"
        let change = "/api/live_activity_schemas/FlightAttributes/1"
        func propagation(_ action: String, _ body: String) throws -> JSONValue? {
            let answer = try tenant.request("POST", "\(change):\(action)?application=\(tenant.code)", body: body)
            #expect(answer.status == 200, "\(answer.bodyText)")
            return try answer.json()["propagation"]
        }

        frozen.send(SIGSTOP)
        let started = Date()
        let disabled = try propagation("disable", #"{"reason":"withdrawn"}"#)
        let waited = Date().timeIntervalSince(started)
        frozen.send(SIGCONT)
        #expect(disabled == ["replicas": 2, "applied": 1, "complete": false])
        #expect(waited >= 0.5, "answered after \(waited) s, before the timeout")
        #expect(try eventually({ try tenant.on(port: frozen.port).request("GET", path).status }, until: { $0 == 404 }) == 404)
        let restored = try propagation("restore", "{}")
        #expect(restored == ["replicas": 2, "applied": 2, "complete": true])
        #expect(try tenant.on(port: frozen.port).request("GET", path).status == 200)
    }
}
