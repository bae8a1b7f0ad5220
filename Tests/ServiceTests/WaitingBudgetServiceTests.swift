import Foundation
import Synchronization
import Testing
import TestSupport

/// Long polls hold connections, and the connections are what every other client needs too:
/// waiters from many addresses, past every waiting budget, never keep another client's reads,
/// `/healthz` or `/metrics` from being answered, and the admin listener is never starved by
/// the API port.
@Suite struct WaitingBudgetServiceTests {
    /// One `wait=30` long poll from `source` on a keep-alive connection; what came back.
    struct WaitOutcome: Sendable {
        let source: String
        let status: Int
        let retryAfter: String?
        /// The server closed the connection after a refusal.
        let closed: Bool
    }

    /// Refusals seen so far, shared by the waiters' threads.
    final class Refusals: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    private func longPoll(_ tenant: Tenant, after cursor: String, from source: String, refusals: Refusals) throws -> WaitOutcome {
        let connection = try RawHTTPConnection(port: tenant.port, timeoutSeconds: 60, sourceAddress: source)
        defer { connection.close() }
        let request = RawHTTPRequest(
            target: "/api/changes?application=\(tenant.code)&wait=30&after=\(cursor)",
            headers: [(name: "Authorization", value: "Api \(tenant.token)")])
        try connection.write(request.encoded(closeConnection: false))
        let response = try connection.readResponse()
        guard response.status == 503 else { return WaitOutcome(source: source, status: response.status, retryAfter: nil, closed: false) }
        refusals.count.add(1, ordering: .relaxed)
        let closed = (try? connection.readToEOF())?.isEmpty == true
        return WaitOutcome(source: source, status: response.status, retryAfter: response.header("retry-after"), closed: closed)
    }

    /// `/healthz`, `/metrics` and a list (or `targets`), `rounds` times from `source`: how many
    /// were answered 200, and the slowest.
    private func probe(
        _ tenant: Tenant, from source: String, targets: [String]? = nil, rounds: Int = 5
    ) throws -> (answered: Int, of: Int, slowest: Duration) {
        let targets = targets ?? ["/healthz", "/metrics", "/api/live_activity_schemas?application=\(tenant.code)"]
        let clock = ContinuousClock()
        var answered = 0
        var slowest = Duration.zero
        for _ in 0..<rounds {
            for target in targets {
                let began = clock.now
                let connection = try RawHTTPConnection(port: tenant.port, timeoutSeconds: 10, sourceAddress: source)
                defer { connection.close() }
                let request = RawHTTPRequest(target: target, headers: [(name: "Authorization", value: "Api \(tenant.token)")])
                try connection.write(request.encoded(closeConnection: true))
                if try connection.readResponse().status == 200 { answered += 1 }
                slowest = max(slowest, clock.now - began)
            }
        }
        return (answered, rounds * targets.count, slowest)
    }

    /// The waiting budgets are left at their defaults, derived from the connection limits
    /// (60 connections, 24 per address: 15 waiters, 6 per address); waiters from five
    /// addresses, twelve each, go past both.
    @Test func waitersFromFiveAddressesPastEveryBudgetAre503WhileOtherClientsAreServed() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(
            environment: serveEnvironment(
                database.url,
                ["REGISTRY_MAX_CONNECTIONS": "60", "REGISTRY_MAX_CONNECTIONS_PER_ADDRESS": "24", "REGISTRY_HTTP_EVENT_LOOPS": "2"]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let cursor = try tenant.changes().cursor
        let sources = (2...6).map { "127.0.0.\($0)" }
        let refusals = Refusals()
        let waiters = sources.flatMap { source in
            (0..<12).map { _ in Background { try longPoll(tenant, after: cursor, from: source, refusals: refusals) } }
        }
        #expect(waitUntil(timeoutSeconds: 20) {
            refusals.value == 45 && (try? gauge("registry_waiting_requests", port: server.port)) == 15
        }, "15 wait, 45 are refused at once: \(refusals.value)")

        // Another address, and one of the flooding addresses itself, are served.
        for source in ["127.0.0.1", "127.0.0.2"] {
            let served = try probe(tenant, from: source)
            #expect(served.answered == served.of, "from \(source)")
            #expect(served.slowest < .seconds(5), "from \(source): \(served.slowest)")
        }

        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        let outcomes = try waiters.map { try $0.result() }
        let answered = outcomes.filter { $0.status == 200 }
        let refused = outcomes.filter { $0.status != 200 }
        #expect(answered.count == 15 && refused.count == 45)
        for source in sources {
            #expect(answered.filter { $0.source == source }.count <= 6, "\(source) waits at most 6")
        }
        #expect(refused.allSatisfy { $0.status == 503 && $0.retryAfter == "1" && $0.closed }, "\(refused.filter { !($0.status == 503 && $0.retryAfter == "1" && $0.closed) })")
        #expect(waitUntil { (try? gauge("registry_waiting_requests", port: server.port)) == 0 })
    }

    /// Probes and metrics on `REGISTRY_ADMIN_LISTEN` have a daemon and connections of their
    /// own: with every connection of the API port taken (idle sockets past its limit sit
    /// unaccepted) and its waiting budget spent, the admin port still answers.
    @Test func theAdminListenerAnswersWhileTheAPIPortIsSaturated() throws {
        let database = try ServiceDatabase.make()
        let adminPort = try TestPorts.free()
        let server = try ServiceProcess.serve(
            environment: serveEnvironment(
                database.url,
                [
                    "REGISTRY_ADMIN_LISTEN": "127.0.0.1:\(adminPort)", "REGISTRY_MAX_CONNECTIONS": "40",
                    "REGISTRY_MAX_CONNECTIONS_PER_ADDRESS": "0", "REGISTRY_REQUEST_HEAD_TIMEOUT_SECONDS": "60",
                ]),
            healthPort: adminPort)
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let cursor = try tenant.changes().cursor
        let refusals = Refusals()
        let waiters = (0..<10).map { index in
            Background { try longPoll(tenant, after: cursor, from: "127.0.0.\(2 + index % 2)", refusals: refusals) }
        }
        #expect(waitUntil(timeoutSeconds: 20) { (try? gauge("registry_waiting_requests", port: adminPort)) == 10 })
        let idle = try (0..<80).map { index in try RawHTTPConnection(port: server.port, sourceAddress: "127.0.0.\(3 + index % 3)") }
        defer { idle.forEach { $0.close() } }

        let served = try probe(tenant.on(port: adminPort), from: "127.0.0.1", targets: ["/healthz", "/metrics", "/readyz"])
        #expect(served.answered == served.of)
        #expect(served.slowest < .seconds(5), "\(served.slowest)")

        idle.forEach { $0.close() }
        // Once the idle sockets close, the API port accepts again at once: the publish wakes
        // the waiters long before their 30 s.
        let clock = ContinuousClock()
        let began = clock.now
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        #expect(try waiters.map { try $0.result().status } == Array(repeating: 200, count: 10))
        #expect(clock.now - began < .seconds(20), "\(clock.now - began)")
        #expect(refusals.value == 0)
    }
}
