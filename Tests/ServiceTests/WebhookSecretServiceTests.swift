import Foundation
import Registry
import Testing
import TestSupport

/// Signing secrets sealed at rest, end to end: `serve` without a key warns and stores secrets
/// as issued; restarted with `REGISTRY_WEBHOOK_SECRET_KEY` it seals them at start, new ones are
/// sealed when written, and the reference `standardwebhooks` verifier accepts every delivery;
/// with another key deliveries fail with the reason logged and counted, and nothing is sent.
@Suite(.serialized) struct WebhookSecretServiceTests {
    static let key = Base64.encode((0..<32).map { UInt8($0 * 11 & 0xFF) })
    static let otherKey = Base64.encode((0..<32).map { UInt8($0 * 13 & 0xFF) })

    static func environment(_ key: String?) -> [String: String] {
        var environment = WebhookServiceTests.fastRetries
        environment["REGISTRY_WEBHOOK_ALLOW_PRIVATE"] = "1"
        environment["REGISTRY_WEBHOOK_ALLOW_HTTP"] = "1"
        if let key { environment["REGISTRY_WEBHOOK_SECRET_KEY"] = key }
        return environment
    }

    static func storedSecrets(_ database: ServiceDatabase) throws -> [String] {
        try database.query("SELECT secret FROM webhook_subscriptions ORDER BY id").map { try $0.string(0) }
    }

    static func metric(_ port: Int, _ outcome: String) throws -> Int? {
        let text = try RawHTTPClient.send(port: port, target: "/metrics", timeoutSeconds: 5).bodyText
        let prefix = "registry_webhook_deliveries_total{outcome=\"\(outcome)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    @Test func secretsAreSealedAtStartAndWhenWrittenAndDeliveriesVerify() throws {
        let receiver = try WebhookServiceTests.Receiver()
        defer { receiver.stop() }
        let database = try ServiceDatabase.make()
        let keyID = try #require(WebhookSecretKey(base64: Self.key)).id

        // Without a key: stored as issued, with one warning at start-up.
        let plain = try ServiceProcess.serve(environment: serveEnvironment(database.url, Self.environment(nil)))
        let tenant = try database.makeTenant(port: plain.port)
        let created = try WebhookServiceTests.create(tenant, url: receiver.url)
        #expect(created.status == 200, "\(created.bodyText)")
        let old = try #require(try created.json()["secret"]?.stringValue)
        #expect(try Self.storedSecrets(database) == [old])
        let warned: (JSONValue) -> Bool = { $0["msg"]?.stringValue?.contains("stored as issued") == true }
        _ = plain.waitForLog(warned)
        let warnings = plain.logObjects.filter(warned)
        #expect(warnings.count == 1 && warnings.first?["level"]?.stringValue == "warning", "\(plain.diagnostics)")
        plain.kill()

        // With the key: the start-up pass seals the old secret, a new subscription's is sealed.
        let keyed = try ServiceProcess.serve(environment: serveEnvironment(database.url, Self.environment(Self.key)))
        defer { keyed.kill() }
        let sealedLine = keyed.waitForLog(timeoutSeconds: 20) { $0["msg"]?.stringValue == "sealed webhook signing secrets" }
        #expect(sealedLine?["webhooks"]?.integerLexemeValue == 1 && sealedLine?["key"]?.stringValue == keyID, "\(keyed.diagnostics)")
        let startup = try #require(keyed.logObjects.first { $0["msg"]?.stringValue == "serving" })
        #expect(startup["webhook_secret_key"]?.stringValue == "key \(keyID)")
        let second = try WebhookServiceTests.create(tenant.on(port: keyed.port), url: receiver.url)
        let new = try #require(try second.json()["secret"]?.stringValue)
        let stored = try Self.storedSecrets(database)
        #expect(stored.count == 2 && stored.allSatisfy { $0.hasPrefix("v1:\(keyID):") && !$0.contains("whsec_") }, "\(stored)")

        try receiver.control(secrets: [old, new], script: ["200"])
        #expect(try tenant.on(port: keyed.port).publish("Flight", flightSchema()).status == 200)
        let log = try eventually(seconds: 20, { try receiver.log() }, until: { $0.count >= 2 })
        #expect(log.count == 2)
        let verifiedBy = log.compactMap { $0["verified_by"]?.arrayValue?.compactMap(\.integerLexemeValue) }
        #expect(Set(verifiedBy) == [[0], [1]], "each delivery verifies under its own subscription's secret: \(verifiedBy)")
        let everything = keyed.stdout + keyed.stderr + plain.stdout + plain.stderr
        for secret in [old, new, Self.key] { #expect(!everything.contains(secret), "a secret or the key was logged") }
    }

    @Test func anotherKeyFailsDeliveriesWithTheReasonAndSendsNothing() throws {
        let receiver = try WebhookServiceTests.Receiver()
        defer { receiver.stop() }
        let database = try ServiceDatabase.make()
        let keyID = try #require(WebhookSecretKey(base64: Self.key)).id
        let otherID = try #require(WebhookSecretKey(base64: Self.otherKey)).id
        let keyed = try ServiceProcess.serve(environment: serveEnvironment(database.url, Self.environment(Self.key)))
        let tenant = try database.makeTenant(port: keyed.port)
        let created = try WebhookServiceTests.create(tenant, url: receiver.url)
        let secret = try #require(try created.json()["secret"]?.stringValue)
        let id = try #require(try created.json()["webhook"]?["id"]?.integerLexemeValue)
        keyed.kill()

        let wrong = try ServiceProcess.serve(environment: serveEnvironment(database.url, Self.environment(Self.otherKey)))
        defer { wrong.kill() }
        let warning = wrong.waitForLog(timeoutSeconds: 20) { $0["msg"]?.stringValue?.contains("sealed with another key") == true }
        #expect(warning?["other_keys"] == [.string(keyID)] && warning?["level"]?.stringValue == "warning", "\(wrong.diagnostics)")
        #expect(try tenant.on(port: wrong.port).publish("Flight", flightSchema()).status == 200)
        let counted = try eventually(seconds: 20, { try Self.metric(wrong.port, "secret_unreadable") ?? 0 }, until: { $0 >= 1 })
        #expect(counted >= 1)
        let line = try #require(wrong.waitForLog { $0["msg"]?.stringValue == "webhook not delivered: its signing secret does not open" })
        #expect(line["webhook_id"]?.integerLexemeValue == id)
        #expect(line["error"]?.stringValue?.contains("sealed with key \(keyID), not with this replica's REGISTRY_WEBHOOK_SECRET_KEY (key \(otherID))") == true)
        let deliveries = try tenant.on(port: wrong.port).request("GET", "/api/applications/\(tenant.code)/webhooks/\(id)/deliveries")
            .json()["deliveries"]?.arrayValue ?? []
        #expect(deliveries.first?["error"]?.stringValue == line["error"]?.stringValue && deliveries.first?["status"]?.integerLexemeValue == 0)
        #expect(try receiver.log().isEmpty, "nothing unsigned reaches the receiver")
        #expect(try RawHTTPClient.send(port: wrong.port, target: "/readyz", timeoutSeconds: 5).status == 200, "the replica stays ready")
        let everything = keyed.stdout + keyed.stderr + wrong.stdout + wrong.stderr
        for text in [secret, Self.key, Self.otherKey] { #expect(!everything.contains(text), "a secret or a key was logged") }
    }

    /// A rotation as the README's procedure does it: the new key from a file
    /// (`REGISTRY_WEBHOOK_SECRET_KEY_FILE`), the old one in `REGISTRY_WEBHOOK_SECRET_OLD_KEYS`.
    /// The start-up pass re-seals the secret under the new key and says none is left under the
    /// old one; deliveries verify; the start-up line and logs show key ids only.
    @Test func rotatingTheKeyReSealsSecretsAndDeliveriesVerify() throws {
        let receiver = try WebhookServiceTests.Receiver()
        defer { receiver.stop() }
        let database = try ServiceDatabase.make()
        let oldID = try #require(WebhookSecretKey(base64: Self.key)).id
        let newID = try #require(WebhookSecretKey(base64: Self.otherKey)).id
        let before = try ServiceProcess.serve(environment: serveEnvironment(database.url, Self.environment(Self.key)))
        let tenant = try database.makeTenant(port: before.port)
        let created = try WebhookServiceTests.create(tenant, url: receiver.url)
        let secret = try #require(try created.json()["secret"]?.stringValue)
        #expect(try Self.storedSecrets(database).map { $0.hasPrefix("v1:\(oldID):") } == [true])
        before.kill()

        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-key-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: keyFile, contents: Data((Self.otherKey + "\n").utf8)))
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        var environment = Self.environment(nil)
        environment["REGISTRY_WEBHOOK_SECRET_KEY_FILE"] = keyFile
        environment["REGISTRY_WEBHOOK_SECRET_OLD_KEYS"] = Self.key
        let rotated = try ServiceProcess.serve(environment: serveEnvironment(database.url, environment))
        defer { rotated.kill() }
        let line = rotated.waitForLog(timeoutSeconds: 20) { $0["msg"]?.stringValue == "re-sealed webhook signing secrets under the current key" }
        #expect(line?["webhooks"]?.integerLexemeValue == 1 && line?["secrets_under_old_keys"]?.integerLexemeValue == 0, "\(rotated.diagnostics)")
        #expect(line?["key"]?.stringValue == newID && line?["old_keys"] == [.string(oldID)] && line?["level"]?.stringValue == "info")
        let startup = try #require(rotated.logObjects.first { $0["msg"]?.stringValue == "serving" })
        #expect(startup["webhook_secret_key"]?.stringValue == "key \(newID)")
        #expect(startup["webhook_secret_old_keys"]?.stringValue == "keys \(oldID)")
        #expect(try Self.storedSecrets(database).map { $0.hasPrefix("v1:\(newID):") } == [true])

        try receiver.control(secrets: [secret], script: ["200"])
        #expect(try tenant.on(port: rotated.port).publish("Flight", flightSchema()).status == 200)
        let log = try eventually(seconds: 20, { try receiver.log() }, until: { $0.count >= 1 })
        #expect(log.count == 1 && log.first?["verified_by"]?.arrayValue?.compactMap(\.integerLexemeValue) == [0], "\(log)")
        let everything = before.stdout + before.stderr + rotated.stdout + rotated.stderr
        for text in [secret, Self.key, Self.otherKey] { #expect(!everything.contains(text), "a secret or a key was logged") }
    }

    /// `admin seal-webhook-secrets` runs the pass on demand: without a key it refuses; with a
    /// new key alone it names the old key still holding the secret and exits 1; with the old key
    /// beside it, it re-seals and exits 0; again, it has nothing left to do. Key ids only.
    @Test func theAdminPassReSealsOnDemandAndExitsZeroOnlyWhenNothingIsLeft() throws {
        let database = try ServiceDatabase.make()
        let oldID = try #require(WebhookSecretKey(base64: Self.key)).id
        let newID = try #require(WebhookSecretKey(base64: Self.otherKey)).id
        let before = try ServiceProcess.serve(environment: serveEnvironment(database.url, Self.environment(Self.key)))
        let tenant = try database.makeTenant(port: before.port)
        #expect(try WebhookServiceTests.create(tenant, url: "http://127.0.0.1:9/in").status == 200)
        before.kill()
        func pass(_ settings: [String: String]) throws -> CommandResult {
            try ServiceProcess.run(
                ["admin", "seal-webhook-secrets"], environment: ServiceProcess.environment(settings.merging(["DATABASE_URL": database.url]) { a, _ in a }),
                timeoutSeconds: 15)
        }
        let keyless = try pass([:])
        #expect(keyless.status == 1 && keyless.stderr.contains("REGISTRY_WEBHOOK_SECRET_KEY is not set"), "\(keyless)")
        let newOnly = try pass(["REGISTRY_WEBHOOK_SECRET_KEY": Self.otherKey])
        #expect(newOnly.status == 1 && newOnly.stdoutLines == ["sealed\t0", "resealed\t0", "other_key\t\(oldID)\t1"], "\(newOnly)")
        #expect(newOnly.stderr.contains("1 webhook signing secrets are not sealed under the current key \(newID)"), "\(newOnly)")
        let rotating = ["REGISTRY_WEBHOOK_SECRET_KEY": Self.otherKey, "REGISTRY_WEBHOOK_SECRET_OLD_KEYS": Self.key]
        let resealed = try pass(rotating)
        #expect(resealed.status == 0 && resealed.stdoutLines == ["sealed\t0", "resealed\t1"], "\(resealed)")
        #expect(try Self.storedSecrets(database).map { $0.hasPrefix("v1:\(newID):") } == [true])
        let again = try pass(rotating)
        #expect(again.status == 0 && again.stdoutLines == ["sealed\t0", "resealed\t0"], "\(again)")
        for result in [keyless, newOnly, resealed, again] {
            for key in [Self.key, Self.otherKey] { #expect(!(result.stdout + result.stderr).contains(key), "a key was printed") }
        }
    }
}

extension Tenant {
    /// The same tenant, talking to the server on `port` (the next process on one database).
    fileprivate func on(port: Int) -> Tenant {
        Tenant(port: port, code: code, token: token, accountID: accountID, tokenID: tokenID)
    }
}
