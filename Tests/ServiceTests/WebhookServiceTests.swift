import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Webhooks end to end: `serve` delivering to a receiver on 127.0.0.1 that verifies every
/// signature with the reference `standardwebhooks` package from PyPI and answers by script
/// (Tests/Scripts/webhook_receiver.py), and the destinations refused without the allow settings.
@Suite(.serialized) struct WebhookServiceTests {
    /// The receiver process and its control endpoints.
    final class Receiver {
        let process: Process
        let port: Int
        /// The receiver exits when this closes, so it never outlives the test process.
        private let lifeline = Pipe()

        init() throws {
            let root = TestPaths.packageRoot
            let tools = root.appendingPathComponent(".build/webhook-tools")
            guard FileManager.default.fileExists(atPath: tools.appendingPathComponent("standardwebhooks").path) else {
                throw ServiceProcessError("standardwebhooks is not installed in .build/webhook-tools: run deploy/dev.sh test (install_webhook_receiver_tools)")
            }
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [root.appendingPathComponent("Tests/Scripts/webhook_receiver.py").path]
            process.environment = ["PYTHONPATH": tools.path, "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = lifeline
            try process.run()
            var line: [UInt8] = []
            while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { line.append(byte) }
            guard let port = try JSONParser.parse(line)["port"]?.integerLexemeValue else {
                process.terminate()
                throw ServiceProcessError("the webhook receiver did not print its port")
            }
            self.port = port
        }

        /// SIGKILL: the test process ignores SIGTERM, and a child inherits that.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        deinit { stop() }

        var url: String { "http://127.0.0.1:\(port)/hook" }

        func control(secrets: [String], script: [String]) throws {
            let body = JSONWriter.string(["secrets": .array(secrets.map(JSONValue.string)), "script": .array(script.map(JSONValue.string))])
            let response = try RawHTTPClient.send(
                port: port, method: "POST", target: "/control", headers: [(name: "Content-Type", value: "application/json")],
                body: Array(body.utf8), timeoutSeconds: 5)
            #expect(response.status == 200)
        }

        func log() throws -> [JSONValue] {
            try RawHTTPClient.send(port: port, target: "/control/log", timeoutSeconds: 5).json().arrayValue ?? []
        }
    }

    static let fastRetries = [
        "REGISTRY_WEBHOOK_TIMEOUT_MS": "1500", "REGISTRY_WEBHOOK_CONNECT_TIMEOUT_MS": "500", "REGISTRY_WEBHOOK_LEASE_SECONDS": "5",
        "REGISTRY_WEBHOOK_POLL_MS": "50", "REGISTRY_WEBHOOK_RETRY_FIRST_SECONDS": "1", "REGISTRY_WEBHOOK_RETRY_MAX_SECONDS": "1",
    ]

    static func create(_ tenant: Tenant, url: String, events: [String] = ["published", "deleted"]) throws -> RawHTTPResponse {
        let body: JSONObject = ["url": .string(url), "events": .array(events.map(JSONValue.string)), "description": "test receiver"]
        return try tenant.request("POST", "/api/applications/\(tenant.code)/webhooks", body: JSONWriter.string(.object(body)))
    }

    /// Every answer the receiver can give, in one subscription's queue: 200, 500, a slow 200,
    /// a connection closed mid-answer, a hang past the timeout, a redirect to the metadata
    /// address (not followed), then 410, which disables the subscription. Each event is sent
    /// until it succeeds, the ones behind it waiting; every signature verifies.
    @Test func deliversInOrderThroughEveryKindOfAnswerAndDisablesOn410() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let database = try ServiceDatabase.make()
        var environment = Self.fastRetries
        environment["REGISTRY_WEBHOOK_ALLOW_PRIVATE"] = "1"
        environment["REGISTRY_WEBHOOK_ALLOW_HTTP"] = "1"
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, environment))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let created = try Self.create(tenant, url: receiver.url)
        #expect(created.status == 200, "\(created.bodyText)")
        let secret = try #require(try created.json()["secret"]?.stringValue)
        #expect(secret.hasPrefix("whsec_"))
        let id = try #require(try created.json()["webhook"]?["id"]?.integerLexemeValue)
        #expect(!(try tenant.request("GET", "/api/applications/\(tenant.code)/webhooks/\(id)").bodyText.contains(secret)))
        try receiver.control(secrets: [secret], script: ["200", "500", "slow", "close", "hang", "redirect:http://169.254.169.254/", "200", "410"])
        for _ in 0..<4 { #expect(try tenant.publish("Flight", flightSchema()).status == 200) }
        let log = try eventually(seconds: 30, { try receiver.log() }, until: { $0.count >= 8 })
        #expect(log.count == 8)
        let versions = log.compactMap { entry -> Int? in
            guard case .string(let body)? = entry["body"] else { return nil }
            return (try? JSONParser.parse(Array(body.utf8)))?["version"]?.integerLexemeValue
        }
        #expect(versions == [1, 2, 2, 3, 3, 3, 3, 4])
        #expect(log.allSatisfy { $0["verified_by"] == [0] }, "every signature verifies with standardwebhooks")
        let ids = log.compactMap { $0["id"]?.stringValue }
        #expect(Set(ids).count == 4, "retries keep the event's webhook-id")
        let subscription = try eventually(
            seconds: 10, { try tenant.request("GET", "/api/applications/\(tenant.code)/webhooks/\(id)").json()["webhook"] },
            until: { $0?["enabled"] == false })
        #expect(subscription?["disabled_reason"]?.stringValue == "the receiver answered 410 Gone")
        let deliveries = try tenant.request("GET", "/api/applications/\(tenant.code)/webhooks/\(id)/deliveries").json()["deliveries"]?.arrayValue ?? []
        #expect(deliveries.compactMap { $0["status"]?.integerLexemeValue }.reversed() == [200, 500, 200, 200, 0, 302, 200, 410])
        #expect(deliveries.compactMap { $0["succeeded"] == true ? 1 : nil }.count == 3)
        var bodyCursors: [String: String] = [:]
        for entry in log {
            if let id = entry["id"]?.stringValue, case .string(let body)? = entry["body"],
                let cursor = try JSONParser.parse(Array(body.utf8))["cursor"]?.stringValue
            {
                bodyCursors[id] = cursor
            }
        }
        #expect(bodyCursors.count == 4)
        #expect(
            deliveries.allSatisfy { $0["cursor"]?.stringValue == bodyCursors[$0["webhook_id"]?.stringValue ?? ""] },
            "each attempt names the cursor its body carried, which :redeliver takes")
        let errors = deliveries.compactMap { $0["error"]?.stringValue }.joined(separator: " | ")
        #expect(errors.contains("redirects are not followed"))
        #expect(errors.contains("imed out") || errors.contains("timeout"), "\(errors)")
        let audit = try tenant.request("GET", "/api/audit_events?application=\(tenant.code)").bodyText
        #expect(audit.contains("webhook_create") && audit.contains("webhook_disable"))
        #expect(!audit.contains(secret))
        let metrics = try RawHTTPClient.send(port: server.port, target: "/metrics", timeoutSeconds: 5).bodyText
        #expect(metrics.contains("registry_webhook_deliveries_total{outcome=\"delivered\"} 3"))
        #expect(metrics.contains("registry_webhook_queue_depth"))
        #expect(!server.stdout.contains(secret) && !server.stderr.contains(secret), "the secret is never logged")
    }

    /// After a rotation both secrets sign until the grace period ends; the receiver's reference
    /// verifier accepts the delivery under either. A test event is sent on demand.
    @Test func rotationSignsWithBothSecretsAndTestEventsArriveOnDemand() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let database = try ServiceDatabase.make()
        var environment = Self.fastRetries
        environment["REGISTRY_WEBHOOK_ALLOW_PRIVATE"] = "1"
        environment["REGISTRY_WEBHOOK_ALLOW_HTTP"] = "1"
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, environment))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let created = try Self.create(tenant, url: receiver.url)
        let old = try #require(try created.json()["secret"]?.stringValue)
        let id = try #require(try created.json()["webhook"]?["id"]?.integerLexemeValue)
        let path = "/api/applications/\(tenant.code)/webhooks/\(id)"
        let rotated = try tenant.request("POST", path + ":rotate_secret", body: #"{"grace_seconds": 600}"#)
        #expect(rotated.status == 200, "\(rotated.bodyText)")
        let new = try #require(try rotated.json()["secret"]?.stringValue)
        #expect(new != old)
        try receiver.control(secrets: [old, new], script: ["200"])
        let test = try tenant.request("POST", path + ":test", body: "{}")
        #expect(test.status == 200)
        let log = try eventually(seconds: 10, { try receiver.log() }, until: { !$0.isEmpty })
        #expect(log.first?["verified_by"] == [0, 1])
        #expect(try log.first?["id"]?.stringValue == test.json()["webhook_id"]?.stringValue)
        let attempt = try eventually(
            seconds: 10, { try tenant.request("GET", path + "/deliveries").json()["deliveries"]?.arrayValue?.first },
            until: { $0 != nil })
        #expect(attempt?["type"] == "test")
        #expect(attempt?["cursor"] == .null, "a test event names no feed event")
        _ = try tenant.request("POST", path + ":rotate_secret", body: #"{"grace_seconds": 0}"#)
        let newest = try #require(try tenant.request("GET", path).json()["webhook"]).self
        #expect(newest["previous_secret_until"] == .null)
    }

    /// Without REGISTRY_WEBHOOK_ALLOW_PRIVATE every private class is refused when the webhook
    /// is written (a name that resolves to 127.0.0.1 too), and a subscription that reaches the
    /// database pointing at one anyway (as DNS rebinding would) is refused when connecting.
    @Test func privateDestinationsAreRefusedAtCreationAndAtConnect() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let database = try ServiceDatabase.make()
        var environment = Self.fastRetries
        environment["REGISTRY_WEBHOOK_ALLOW_HTTP"] = "1"
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, environment))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let refused = [
            receiver.url, "http://localhost:\(receiver.port)/", "https://10.0.0.1/", "https://172.16.5.4/", "https://192.168.0.1/",
            "https://169.254.169.254/latest/meta-data/", "https://[fd00:ec2::254]/", "https://100.64.0.1/", "https://224.0.0.1/",
            "https://[fe80::1]/", "https://[::1]/", "https://0.0.0.0/", "https://[::ffff:127.0.0.1]/", "ftp://93.184.216.34/",
        ]
        var checked = 0
        for url in refused {
            let response = try Self.create(tenant, url: url)
            #expect(response.status == 400, "\(url): \(response.bodyText)")
            checked += 1
        }
        #expect(checked == refused.count)
        #expect(try Self.create(tenant, url: "https://93.184.216.34/", events: ["deleted"]).status == 200)
        // Written behind the API's back: the worker must still refuse the connect.
        let application = try #require(try database.query("SELECT id FROM applications WHERE code = '\(tenant.code)'").first).int64(0)
        _ = try database.query(
            "INSERT INTO webhook_subscriptions (application_id, url, events, secret, position_xid) VALUES (\(application), '\(receiver.url)', '{published}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', registry_feed_horizon())")
        #expect(try tenant.publish("Flight", flightSchema()).status == 200)
        let attempts = try eventually(
            seconds: 10,
            { try database.query("SELECT error FROM webhook_attempts a JOIN webhook_subscriptions s ON s.id = a.subscription_id WHERE s.url = '\(receiver.url)'") },
            until: { !$0.isEmpty })
        #expect(try attempts.first?.string(0) == "the destination's address is not allowed for webhooks")
        #expect(try receiver.log().isEmpty, "nothing reached the receiver")
    }
}
