import Foundation
import Registry
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// Signing secrets sealed at rest against a real database: with a key the columns hold no
/// secret as issued and deliveries still verify; the start-up pass seals the secrets written
/// before the key; a secret sealed with no key or another key here fails its deliveries with
/// the reason logged, never disables the subscription, and delivers once the key is right.
@Suite struct WebhookSecretSealingTests {
    typealias Transport = WebhookDeliveryTests.ScriptedTransport

    /// Every stored secret, current and previous, as the columns hold them.
    static func storedSecrets(_ f: Fixture) throws -> [String] {
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        return try connection.simpleQuery("SELECT secret, coalesce(previous_secret, '') FROM webhook_subscriptions ORDER BY id").rows
            .flatMap { [try $0.string(0), try $0.string(1)] }.filter { !$0.isEmpty }
    }

    /// The README's check during a key rotation ("Rotating the sealing key"), as printed there:
    /// stored secrets counted by the id of the key sealing them ("" for those stored as issued).
    static let secretsByKeyID =
        "SELECT split_part(s, ':', 2) AS key_id, count(*) FROM webhook_subscriptions, unnest(ARRAY[secret, previous_secret]) AS s WHERE s IS NOT NULL GROUP BY 1 ORDER BY 1"

    static func secretsByKeyID(_ f: Fixture) throws -> [String] {
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        return try connection.simpleQuery(secretsByKeyID).rows.map { "\(try $0.string(0))=\(try $0.string(1))" }
    }

    /// The reasons the deliverer reported for secrets that did not open, as logged.
    final class Reasons: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    static func deliverer(
        _ f: Fixture, _ transport: Transport, _ clock: TestClock, key: WebhookSecretKey?, old: [WebhookSecretKey] = [],
        unreadable: Reasons = Reasons()
    ) -> WebhookDeliverer {
        WebhookDeliverer(
            pool: f.pool, transport: transport, keyring: key.map { WebhookSecretKeyring(current: $0, old: old) },
            settings: WebhookDeliverer.Settings(threads: 1, leaseSeconds: 30, pollSeconds: 0.05, backoff: WebhookDeliveryTests.backoff),
            replica: "a", clock: clock.now, jitter: { 1 }, cursorToken: { "c\($0.xid)_\($0.id)" },
            onUnreadableSecret: { id, reason in unreadable.lines.withLock { $0.append("\(id) \(reason)") } })
    }

    static func subscribe(_ store: PostgresSchemaStore, _ f: Fixture, url: String = "https://a.example/in") async throws -> (WebhookSubscription, String) {
        let secret = WebhookSecret.generate()
        let created = try await store.createWebhook(
            application: f.application, settings: WebhookSettings(url: url, events: [.published]), secret: secret, by: .cli)
        return (created, secret)
    }

    @Test func withAKeyTheColumnsHoldOnlySealedSecretsAndDeliveriesVerify() async throws {
        let f = try Fixture()
        let key = WebhookSecretKey.generate()
        let store = PostgresSchemaStore(pool: f.pool, webhookSecretKey: key)
        let (subscription, old) = try await Self.subscribe(store, f)
        let new = WebhookSecret.generate()
        _ = try await store.rotateWebhookSecret(application: f.application, id: subscription.id, secret: new, graceSeconds: 3600, by: .cli)
        let stored = try Self.storedSecrets(f)
        #expect(stored.count == 2)
        #expect(stored.allSatisfy { $0.hasPrefix("v1:\(key.id):") && !$0.contains("whsec_") }, "\(stored.map { $0.prefix(12) })")
        #expect(!stored.contains { $0.contains(String(old.dropFirst(6))) || $0.contains(String(new.dropFirst(6))) })
        try await f.publish("Ride")
        let transport = Transport()
        try WebhookDeliveryTests.waitUntilFeedIsFinal(f)
        try WebhookDeliveryTests.drain(Self.deliverer(f, transport, WebhookDeliveryTests.clock(), key: key))
        let sent = try #require(transport.sent.first)
        #expect(transport.sent.count == 1)
        #expect(WebhookDeliveryTests.verifies(sent, new) && WebhookDeliveryTests.verifies(sent, old))
    }

    /// Secrets written before the key (both columns) are sealed by one pass; a second pass
    /// finds nothing; the secrets sign as before.
    @Test func theStartupPassSealsSecretsStoredAsIssued() async throws {
        var subscriptions: [(url: String, secrets: [String])] = []
        let f = try Fixture()
        for index in 0..<3 {
            let url = "https://\(index).example/in"
            let (subscription, secret) = try await Self.subscribe(f.store, f, url: url)
            subscriptions.append((url, [secret]))
            if index == 0 {
                let fresh = WebhookSecret.generate()
                _ = try await f.store.rotateWebhookSecret(application: f.application, id: subscription.id, secret: fresh, graceSeconds: 3600, by: .cli)
                subscriptions[0].secrets.insert(fresh, at: 0)
            }
        }
        #expect(try Self.storedSecrets(f).count == 4 && Self.storedSecrets(f).allSatisfy { $0.hasPrefix("whsec_") })

        let key = WebhookSecretKey.generate()
        let outcome = try WebhookSecretSealer(pool: f.pool, key: key).run()
        #expect(outcome == WebhookSecretSealer.Outcome(sealed: 3, sealedWithOtherKeys: [:]))
        let stored = try Self.storedSecrets(f)
        #expect(stored.count == 4 && stored.allSatisfy { WebhookSecretEnvelope.keyID(of: $0) == key.id && !$0.contains("whsec_") })
        #expect(try WebhookSecretSealer(pool: f.pool, key: key).run() == WebhookSecretSealer.Outcome())

        try await f.publish("Ride")
        let transport = Transport()
        try WebhookDeliveryTests.waitUntilFeedIsFinal(f)
        try WebhookDeliveryTests.drain(Self.deliverer(f, transport, WebhookDeliveryTests.clock(), key: key))
        #expect(transport.sent.count == 3)
        var verified = 0
        for sent in transport.sent {
            let subscription = try #require(subscriptions.first { $0.url.utf8.elementsEqual(sent.url.utf8) })
            for secret in subscription.secrets {
                #expect(WebhookDeliveryTests.verifies(sent, secret), "\(sent.url)")
                verified += 1
            }
        }
        #expect(verified == 4)
    }

    /// Runs `sealer`'s pass while a rotation to `secret` holds the subscription's row, and
    /// commits the rotation once the pass waits for its lock: the rotation lands between the
    /// pass's read and its write.
    static func passWhileARotationHoldsTheRow(
        _ f: Fixture, _ subscription: WebhookSubscription, rotatingTo secret: String, _ sealer: WebhookSecretSealer
    ) throws -> WebhookSecretSealer.Outcome {
        let rotating = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        _ = try rotating.simpleQuery("BEGIN")
        _ = try rotating.simpleQuery(
            "UPDATE webhook_subscriptions SET previous_secret = secret, secret = '\(secret)' WHERE id = \(subscription.id)")
        let pass = Background { try sealer.run() }
        let observer = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        let blocked = waitUntil(timeoutSeconds: 20) {
            let waiting = try? observer.simpleQuery(
                "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
            return waiting?.rows.count == 1
        }
        #expect(blocked, "the pass waits for the rotation's row lock")
        _ = try rotating.simpleQuery("COMMIT")
        return try pass.result()
    }

    /// The pass replaces a secret only if it still holds the text it read. A rotation that
    /// commits between the pass's read and its write (held here by a row lock) is kept as it
    /// was written, and the secret it moved to the previous column is sealed there.
    @Test func aRotationLandingDuringThePassIsKept() async throws {
        let f = try Fixture()
        let (subscription, first) = try await Self.subscribe(f.store, f)
        let key = WebhookSecretKey.generate()
        let second = WebhookSecretEnvelope.seal(WebhookSecret.generate(), with: key)
        let outcome = try Self.passWhileARotationHoldsTheRow(f, subscription, rotatingTo: second, WebhookSecretSealer(pool: f.pool, key: key))
        #expect(outcome.sealed == 1)
        let after = try Self.storedSecrets(f)
        #expect(after.count == 2 && after[0] == second, "the rotation's secret is kept as written")
        #expect(try WebhookSecretEnvelope.open(after[1], with: key) == first)
    }

    @Test func aSecretSealedWithAnotherKeyOrNoKeyFailsItsDeliveriesButNeverDisables() async throws {
        let f = try Fixture()
        let key = WebhookSecretKey.generate()
        let other = WebhookSecretKey.generate()
        let (subscription, secret) = try await Self.subscribe(PostgresSchemaStore(pool: f.pool, webhookSecretKey: key), f)
        try await f.publish("Ride")
        let transport = Transport()
        let clock = WebhookDeliveryTests.clock()
        let unreadable = Reasons()
        for wrong in [other, nil] {
            let deliverer = Self.deliverer(f, transport, clock, key: wrong, unreadable: unreadable)
            #expect(try deliverer.deliverDue())
            #expect(deliverer.counts.secretUnreadable == 1 && deliverer.counts.failed == 0)
            #expect(try !deliverer.deliverDue(), "tried again only after the backoff")
            clock.advance(by: 1000)
        }
        #expect(transport.sent.isEmpty, "nothing unsigned is sent")
        #expect(try WebhookSecretSealer(pool: f.pool, key: other).run().sealedWithOtherKeys == [key.id: 1])
        // Far past the retry window the subscription is still enabled: the receiver never failed.
        let stored = try #require(try await f.store.webhook(application: f.application, id: subscription.id))
        #expect(stored.enabled && stored.disabledReason == nil && stored.failures == 2)
        let attempts = try #require(try await f.store.webhookAttempts(application: f.application, id: subscription.id, before: nil, limit: 10))
        #expect(attempts.map(\.error) == [
            WebhookSecretUnreadable.noKey(sealedWith: key.id).description,
            WebhookSecretUnreadable.otherKey(sealedWith: key.id, configured: other.id).description,
        ])
        #expect(attempts.allSatisfy { !$0.succeeded && $0.status == 0 })
        #expect(unreadable.all == [
            "\(subscription.id) \(WebhookSecretUnreadable.otherKey(sealedWith: key.id, configured: other.id))",
            "\(subscription.id) \(WebhookSecretUnreadable.noKey(sealedWith: key.id))",
        ])
        #expect(!unreadable.all.joined().contains(String(secret.dropFirst(6))))
        // With the right key the held event goes out, signed.
        try WebhookDeliveryTests.waitUntilFeedIsFinal(f)
        try WebhookDeliveryTests.drain(Self.deliverer(f, transport, clock, key: key))
        #expect(transport.sent.count == 1 && WebhookDeliveryTests.verifies(transport.sent[0], secret))
    }

    /// An imported subscription's fresh secret is sealed too.
    @Test func importedSecretsAreSealed() async throws {
        let f = try Fixture()
        _ = try await Self.subscribe(f.store, f)
        let key = WebhookSecretKey.generate()
        let transfer = ApplicationTransfer(pool: f.pool, webhookSecretKey: key)
        let target = try Fixture.makeApplication(admin: f.admin, store: f.store, accountID: f.accountID)
        #expect(try transfer.importing(transfer.export(applicationCode: f.application.code), intoApplicationCode: target.code, dryRun: false).webhooksAdded == 1)
        let stored = try Self.storedSecrets(f)
        #expect(stored.count == 2 && stored[0].hasPrefix("whsec_") && WebhookSecretEnvelope.keyID(of: stored[1]) == key.id)
    }

    /// The database refuses a secret in neither form (migration 0018).
    @Test func theDatabaseRefusesASecretInNoKnownForm() throws {
        let f = try Fixture()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        var refused = 0
        for secret in ["hunter2", "v1:XYZ:AAAA", "v1:0123abcd:", "whsec_"] {
            #expect(throws: (any Error).self, "\(secret)") {
                try connection.simpleQuery(
                    "INSERT INTO webhook_subscriptions (application_id, url, events, secret, position_xid) VALUES (\(f.application.id), 'https://x.example/', '{published}', '\(secret)', registry_feed_horizon())")
            }
            refused += 1
        }
        #expect(refused == 4)
        _ = try connection.simpleQuery(
            "INSERT INTO webhook_subscriptions (application_id, url, events, secret, position_xid) VALUES (\(f.application.id), 'https://x.example/', '{published}', '\(WebhookSecretEnvelope.seal(WebhookSecret.generate(), with: .generate()))', registry_feed_horizon())")
    }

    /// A rotation of the sealing key, before the sealer runs: a replica whose keyring holds the
    /// old key signs with a secret sealed under it, and deliveries verify.
    @Test func aSecretSealedWithAnOldKeySignsDeliveries() async throws {
        let f = try Fixture()
        let old = WebhookSecretKey.generate()
        let current = WebhookSecretKey.generate()
        let (_, secret) = try await Self.subscribe(PostgresSchemaStore(pool: f.pool, webhookSecretKey: old), f)
        #expect(try Self.storedSecrets(f).map { WebhookSecretEnvelope.keyID(of: $0) } == [old.id])
        try await f.publish("Ride")
        let transport = Transport()
        let unreadable = Reasons()
        try WebhookDeliveryTests.waitUntilFeedIsFinal(f)
        try WebhookDeliveryTests.drain(Self.deliverer(f, transport, WebhookDeliveryTests.clock(), key: current, old: [old], unreadable: unreadable))
        #expect(transport.sent.count == 1 && WebhookDeliveryTests.verifies(transport.sent[0], secret))
        #expect(unreadable.all.isEmpty)
    }

    /// One pass seals the secret stored as issued, re-seals every secret under the old key
    /// (both columns) under the current key, and counts the one under a key it does not hold;
    /// a second pass changes nothing; a replica still on the old key (mid-rollout) does not undo
    /// it; deliveries verify with the current key alone afterwards.
    @Test func thePassReSealsSecretsUnderOldKeysWithTheCurrentKey() async throws {
        let f = try Fixture()
        let old = WebhookSecretKey.generate()
        let current = WebhookSecretKey.generate()
        let unknown = WebhookSecretKey.generate()
        let oldStore = PostgresSchemaStore(pool: f.pool, webhookSecretKey: old)
        var secrets: [String: [String]] = [:]
        let (rotated, first) = try await Self.subscribe(oldStore, f, url: "https://0.example/in")
        let fresh = WebhookSecret.generate()
        _ = try await oldStore.rotateWebhookSecret(application: f.application, id: rotated.id, secret: fresh, graceSeconds: 3600, by: .cli)
        secrets["https://0.example/in"] = [fresh, first]
        secrets["https://1.example/in"] = [try await Self.subscribe(oldStore, f, url: "https://1.example/in").1]
        secrets["https://2.example/in"] = [try await Self.subscribe(f.store, f, url: "https://2.example/in").1]
        _ = try await Self.subscribe(PostgresSchemaStore(pool: f.pool, webhookSecretKey: unknown), f, url: "https://3.example/in")
        #expect(try Self.storedSecrets(f).map { WebhookSecretEnvelope.keyID(of: $0) } == [old.id, old.id, old.id, nil, unknown.id])
        #expect(try Self.secretsByKeyID(f) == ["=1"] + ["\(old.id)=3", "\(unknown.id)=1"].sorted())

        let keyring = WebhookSecretKeyring(current: current, old: [old])
        #expect(try WebhookSecretSealer(pool: f.pool, keyring: keyring).run()
            == WebhookSecretSealer.Outcome(sealed: 1, resealed: 2, sealedWithOldKeys: [:], sealedWithOtherKeys: [unknown.id: 1]))
        let stored = try Self.storedSecrets(f)
        #expect(stored.map { WebhookSecretEnvelope.keyID(of: $0) } == [current.id, current.id, current.id, current.id, unknown.id])
        #expect(try Self.secretsByKeyID(f) == ["\(current.id)=4", "\(unknown.id)=1"].sorted())
        #expect(try stored.prefix(3).map { try WebhookSecretEnvelope.open($0, with: current) } == [fresh, first, secrets["https://1.example/in"]![0]])
        #expect(try WebhookSecretSealer(pool: f.pool, keyring: keyring).run() == WebhookSecretSealer.Outcome(sealedWithOtherKeys: [unknown.id: 1]))
        // A replica not yet given the new key counts the new secrets as another key's and
        // leaves them as they are.
        #expect(try WebhookSecretSealer(pool: f.pool, key: old).run().sealedWithOtherKeys == [current.id: 4, unknown.id: 1])
        #expect(try Self.storedSecrets(f) == stored)

        try await f.publish("Ride")
        let transport = Transport()
        let unreadable = Reasons()
        try WebhookDeliveryTests.waitUntilFeedIsFinal(f)
        try WebhookDeliveryTests.drain(Self.deliverer(f, transport, WebhookDeliveryTests.clock(), key: current, unreadable: unreadable))
        #expect(transport.sent.count == 3, "\(transport.sent.map(\.url))")
        var verified = 0
        for sent in transport.sent {
            for secret in try #require(secrets[sent.url]) {
                #expect(WebhookDeliveryTests.verifies(sent, secret), "\(sent.url)")
                verified += 1
            }
        }
        #expect(verified == 4)
        #expect(unreadable.all.count == 1 && unreadable.all[0].contains("sealed with key \(unknown.id)"), "\(unreadable.all)")
    }

    /// A re-seal replaces a secret only if it still holds the text read: a rotation committed
    /// between the pass's read and its write is kept as written, the old-key secret it moved to
    /// the previous column is re-sealed there, and a damaged secret under an old key is left
    /// and counted as still under it.
    @Test func aRotationLandingDuringAReSealIsKeptAndDamagedSecretsAreCounted() async throws {
        let f = try Fixture()
        let old = WebhookSecretKey.generate()
        let current = WebhookSecretKey.generate()
        let (subscription, first) = try await Self.subscribe(PostgresSchemaStore(pool: f.pool, webhookSecretKey: old), f)
        let second = WebhookSecretEnvelope.seal(WebhookSecret.generate(), with: current)
        let keyring = WebhookSecretKeyring(current: current, old: [old])
        let outcome = try Self.passWhileARotationHoldsTheRow(f, subscription, rotatingTo: second, WebhookSecretSealer(pool: f.pool, keyring: keyring))
        #expect(outcome == WebhookSecretSealer.Outcome(resealed: 1))
        let rotating = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        let after = try Self.storedSecrets(f)
        #expect(after.count == 2 && after[0] == second, "the rotation's secret is kept as written")
        #expect(try WebhookSecretEnvelope.open(after[1], with: current) == first)

        // A secret under the old key with a changed byte does not open: left, and counted.
        let (_, _) = try await Self.subscribe(PostgresSchemaStore(pool: f.pool, webhookSecretKey: old), f, url: "https://b.example/in")
        let damaged = try rotating.simpleQuery("SELECT id, secret FROM webhook_subscriptions ORDER BY id DESC LIMIT 1").rows[0]
        let text = try damaged.string(1)
        let changed = String(text.dropLast(2)) + (text.hasSuffix("AA") ? "BA" : "AA")
        _ = try rotating.simpleQuery("UPDATE webhook_subscriptions SET secret = '\(changed)' WHERE id = \(try damaged.int64(0))")
        #expect(try WebhookSecretSealer(pool: f.pool, keyring: keyring).run() == WebhookSecretSealer.Outcome(sealedWithOldKeys: [old.id: 1]))
        #expect(try Self.storedSecrets(f).last == changed)
    }
}
