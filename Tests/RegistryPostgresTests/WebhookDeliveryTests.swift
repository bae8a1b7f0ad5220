import Foundation
import Registry
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// The delivery worker against a real database with a scripted transport and a test clock:
/// feed order per subscription, filters, signatures, backoff and disabling, leases across
/// replicas, redelivery, test events and secret rotation.
@Suite struct WebhookDeliveryTests {
    /// Answers each post with the next scripted response (the last one repeats) and keeps what
    /// was sent.
    final class ScriptedTransport: WebhookTransport {
        struct Sent: Sendable {
            let url: String
            let headers: [String: String]
            let body: [UInt8]
            var id: String { headers["webhook-id"]! }
            var type: String {
                guard case .object(let object)? = try? JSONParser.parse(body), case .string(let type)? = object["type"] else { return "" }
                return type
            }
            var attributesType: String {
                guard case .object(let object)? = try? JSONParser.parse(body), case .string(let type)? = object["attributes_type"] else { return "" }
                return type
            }
        }
        private let script: Mutex<[WebhookResponse]>
        private let log = Mutex<[Sent]>([])

        init(_ responses: [WebhookResponse] = [WebhookResponse(status: 200)]) {
            script = Mutex(responses)
        }

        func answer(with responses: [WebhookResponse]) { script.withLock { $0 = responses } }

        var sent: [Sent] { log.withLock { $0 } }

        func post(url: String, headers: [(name: String, value: String)], body: [UInt8]) -> WebhookResponse {
            log.withLock { $0.append(Sent(url: url, headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }), body: body)) }
            return script.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        }
    }

    static let backoff = WebhookBackoff(firstDelaySeconds: 5, maxDelaySeconds: 20, retryWindowSeconds: 60)

    static func deliverer(_ f: Fixture, _ transport: ScriptedTransport, _ clock: TestClock, replica: String = "a") -> WebhookDeliverer {
        WebhookDeliverer(
            pool: f.pool, transport: transport,
            settings: WebhookDeliverer.Settings(threads: 1, leaseSeconds: 30, pollSeconds: 0.05, backoff: backoff, pageSize: 2),
            replica: replica, clock: clock.now, jitter: { 1 }, cursorToken: { "c\($0.xid)_\($0.id)" })
    }

    static func clock() -> TestClock { TestClock(startingAt: Date().timeIntervalSince1970 + 1) }

    static func subscribe(_ f: Fixture, prefix: String = "", events: [ChangeKind] = [.published, .deleted], url: String = "https://a.example/in")
        async throws -> (WebhookSubscription, String)
    {
        let secret = WebhookSecret.generate()
        let created = try await f.store.createWebhook(
            application: f.application, settings: WebhookSettings(url: url, events: events, typePrefix: prefix), secret: secret, by: .cli)
        return (created, secret)
    }

    /// Every signature in the header is checked; true when one verifies under `secret`.
    static func verifies(_ sent: ScriptedTransport.Sent, _ secret: String) -> Bool {
        guard let key = WebhookSecret.key(of: secret), let timestamp = Int64(sent.headers["webhook-timestamp"] ?? "") else { return false }
        let expected = WebhookSignature.sign(key: key, messageID: sent.id, timestamp: timestamp, body: sent.body)
        return (sent.headers["webhook-signature"] ?? "").split(separator: " ").contains { $0 == expected }
    }

    /// Waits until every event committed so far is final (older than the feed's horizon, which
    /// only moves forward). A deliverer sends only final events, so under a loaded parallel run
    /// an event held back by a transaction still running would arrive in a later round.
    static func waitUntilFeedIsFinal(_ f: Fixture) throws {
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        let final = waitUntil(timeoutSeconds: 60) {
            let rows = try? connection.simpleQuery(
                "SELECT 1 WHERE registry_feed_horizon() > (SELECT coalesce(max(xid), '0'::xid8) FROM change_events)")
            return rows?.rows.count == 1
        }
        #expect(final, "every committed event becomes final")
    }

    static func drain(_ deliverer: WebhookDeliverer) throws {
        var rounds = 0
        while try deliverer.deliverDue() { rounds += 1; #expect(rounds < 100) }
    }

    @Test func deliversEventsCommittedAfterCreationInFeedOrderFilteredAndSigned() async throws {
        let f = try Fixture()
        try await f.publish("Ride")
        let (_, secret) = try await Self.subscribe(f, prefix: "Ri")
        for type in ["Ride", "Other", "Ride", "Rider", "Other"] { try await f.publish(type) }
        _ = try await f.store.delete(application: f.application, attributesType: "Ride", version: 1, by: .cli)
        try Self.waitUntilFeedIsFinal(f)
        let transport = ScriptedTransport()
        try Self.drain(Self.deliverer(f, transport, Self.clock()))
        let sent = transport.sent
        let described = try sent.map { sent -> String in
            guard case .object(let body) = try JSONParser.parse(sent.body), case .string(let type)? = body["attributes_type"],
                case .number(let version)? = body["version"] else { return "?" }
            return "\(sent.type) \(type) \(version)"
        }
        #expect(described == ["published Ride 2", "published Ride 3", "published Rider 1", "deleted Ride 1"])
        #expect(sent.allSatisfy { Self.verifies($0, secret) })
        #expect(Set(sent.map(\.id)).count == sent.count)
        #expect(sent.allSatisfy { $0.url == "https://a.example/in" && $0.headers["content-type"] == "application/json" })
        // Nothing more is due; the log holds every attempt.
        #expect(try !Self.deliverer(f, transport, Self.clock()).deliverDue())
        let subscription = try #require(try await f.store.webhooks(application: f.application).first)
        let attempts = try #require(try await f.store.webhookAttempts(application: f.application, id: subscription.id, before: nil, limit: 100))
        #expect(attempts.count == 4 && attempts.allSatisfy(\.succeeded))
    }

    /// A failing event holds the ones behind it for its subscription only; retries follow the
    /// backoff on the test clock, then the subscription is disabled with its audit event.
    @Test func failuresBackOffHoldTheirOwnQueueAndDisableAfterTheWindow() async throws {
        let f = try Fixture()
        let (failing, _) = try await Self.subscribe(f, url: "https://failing.example/")
        let (healthy, _) = try await Self.subscribe(f, url: "https://healthy.example/")
        try await f.publish("Ride")
        try await f.publish("Ride")
        try Self.waitUntilFeedIsFinal(f)
        final class Split: WebhookTransport {
            let failing = ScriptedTransport([WebhookResponse(status: 500, head: Array("busy".utf8))])
            let healthy = ScriptedTransport()
            func post(url: String, headers: [(name: String, value: String)], body: [UInt8]) -> WebhookResponse {
                (url.contains("failing") ? failing : healthy).post(url: url, headers: headers, body: body)
            }
        }
        let split = Split()
        let clock = Self.clock()
        let deliverer = WebhookDeliverer(
            pool: f.pool, transport: split,
            settings: WebhookDeliverer.Settings(threads: 1, leaseSeconds: 30, backoff: Self.backoff), replica: "a", clock: clock.now,
            jitter: { 1 }, cursorToken: { "c\($0.xid)_\($0.id)" })
        try Self.drain(deliverer)
        #expect(split.healthy.sent.count == 2)
        #expect(split.failing.sent.count == 1)
        // Not due again before its delay: 5 s, 10 s, 20 s, 20 s (capped); then 75 s > 60 s have passed.
        var waits: [Double] = []
        for delay in [5.0, 10, 20, 20, 20] {
            clock.advance(by: delay - 0.5)
            #expect(try !deliverer.deliverDue())
            clock.advance(by: 0.5)
            #expect(try deliverer.deliverDue())
            waits.append(delay)
        }
        #expect(split.failing.sent.count == 6)
        #expect(Set(split.failing.sent.map(\.id)).count == 1, "every retry carries the event's id")
        let disabled = try #require(try await f.store.webhook(application: f.application, id: failing.id))
        #expect(!disabled.enabled)
        #expect(disabled.disabledReason?.contains("status 500") == true)
        clock.advance(by: 1000)
        #expect(try !deliverer.deliverDue())
        let audit = try await f.store.auditEvents(AuditQuery(order: .newestFirst, accountID: f.accountID, applicationID: f.application.id, action: .webhookDisable, limit: 10))
        #expect(audit.count == 1)
        let log = try #require(try await f.store.webhookAttempts(application: f.application, id: failing.id, before: nil, limit: 100))
        #expect(log.count == 6 && log.allSatisfy { !$0.succeeded && $0.status == 500 && $0.responseHead == "busy" })
        // Enabling it again resumes with the event that held it, then the one behind.
        _ = try await f.store.updateWebhook(application: f.application, id: failing.id, settings: WebhookSettings(enabled: true), by: .cli)
        split.failing.answer(with: [WebhookResponse(status: 204)])
        try Self.drain(deliverer)
        #expect(split.failing.sent.count == 8)
        #expect(split.failing.sent[6].id == split.failing.sent[0].id)
        #expect(try await f.store.webhook(application: f.application, id: healthy.id)?.enabled == true)
    }

    @Test func aReceiverAnswering410IsDisabledAtOnce() async throws {
        let f = try Fixture()
        let (subscription, _) = try await Self.subscribe(f)
        try await f.publish("Ride")
        try Self.waitUntilFeedIsFinal(f)
        let transport = ScriptedTransport([WebhookResponse(status: 410)])
        try Self.drain(Self.deliverer(f, transport, Self.clock()))
        #expect(transport.sent.count == 1)
        #expect(try await f.store.webhook(application: f.application, id: subscription.id)?.disabledReason == "the receiver answered 410 Gone")
    }

    /// A replica that claimed a subscription and died leaves it to another once the lease ends;
    /// the event is sent again with the same id.
    @Test func aLeaseKeepsOtherReplicasOutUntilItEnds() async throws {
        let f = try Fixture()
        _ = try await Self.subscribe(f)
        try await f.publish("Ride")
        try Self.waitUntilFeedIsFinal(f)
        let clock = Self.clock()
        let queue = WebhookQueue(pool: f.pool)
        #expect(try queue.claim(holder: "dead", now: clock.now(), leaseSeconds: 30) != nil)
        let transport = ScriptedTransport()
        let survivor = Self.deliverer(f, transport, clock, replica: "b")
        #expect(try !survivor.deliverDue())
        clock.advance(by: 31)
        #expect(try survivor.deliverDue())
        #expect(transport.sent.count == 1)
        // The dead replica's late writes change nothing.
        #expect(try queue.claim(holder: "dead", now: clock.now(), leaseSeconds: 30) == nil)
    }

    @Test func testEventsAndRedeliveriesGoFirstWithTheEventsOwnID() async throws {
        let f = try Fixture()
        let (subscription, _) = try await Self.subscribe(f)
        try await f.publish("Ride")
        try await f.publish("Ride")
        try Self.waitUntilFeedIsFinal(f)
        let transport = ScriptedTransport()
        let deliverer = Self.deliverer(f, transport, Self.clock())
        try Self.drain(deliverer)
        #expect(transport.sent.count == 2)
        let first = transport.sent[0]
        let number = try #require(try await f.store.queueWebhookTest(application: f.application, id: subscription.id))
        let page = try await f.store.changes(application: f.application, after: .start, limit: 10)
        #expect(try await f.store.redeliverWebhook(application: f.application, id: subscription.id, .event(page.events[0].cursor), by: .cli))
        try Self.drain(deliverer)
        #expect(transport.sent.count == 4)
        #expect(transport.sent[2].id == "msg_test_\(number)" && transport.sent[2].type == "test")
        #expect(transport.sent[3].id == first.id && transport.sent[3].body == first.body)
        // Since a cursor: everything after it again, in order.
        #expect(try await f.store.redeliverWebhook(application: f.application, id: subscription.id, .since(.start), by: .cli))
        try Self.drain(deliverer)
        #expect(transport.sent.suffix(2).map(\.id) == transport.sent.prefix(2).map(\.id))
        #expect(try await !f.store.redeliverWebhook(application: f.application, id: subscription.id + 99, .since(.start), by: .cli))
    }

    /// Both secrets sign during the grace period; only the new one once it ended.
    @Test func rotationSignsWithBothSecretsDuringGrace() async throws {
        let f = try Fixture()
        let (subscription, old) = try await Self.subscribe(f)
        let new = WebhookSecret.generate()
        let rotated = try #require(
            try await f.store.rotateWebhookSecret(application: f.application, id: subscription.id, secret: new, graceSeconds: 3600, by: .cli))
        #expect(rotated.previousSecretUntil != nil)
        try await f.publish("Ride")
        try Self.waitUntilFeedIsFinal(f)
        let transport = ScriptedTransport()
        let clock = Self.clock()
        try Self.drain(Self.deliverer(f, transport, clock))
        let during = try #require(transport.sent.last)
        #expect(during.headers["webhook-signature"]?.split(separator: " ").count == 2)
        #expect(Self.verifies(during, old) && Self.verifies(during, new))
        let newest = WebhookSecret.generate()
        _ = try await f.store.rotateWebhookSecret(application: f.application, id: subscription.id, secret: newest, graceSeconds: 0, by: .cli)
        try await f.publish("Ride")
        try Self.waitUntilFeedIsFinal(f)
        try Self.drain(Self.deliverer(f, transport, clock))
        let after = try #require(transport.sent.last)
        #expect(after.headers["webhook-signature"]?.split(separator: " ").count == 1)
        #expect(Self.verifies(after, newest) && !Self.verifies(after, new) && !Self.verifies(after, old))
    }

    /// A subscription leaves out what committed before it even when its starting position is
    /// older (the horizon read lower than an earlier read, as it may); a redelivery of everything
    /// since an earlier cursor sends those events too.
    @Test func changesCommittedBeforeTheSubscriptionAreNotSentFromAnOlderPosition() async throws {
        let f = try Fixture()
        try await f.publish("Before")
        let (subscription, _) = try await Self.subscribe(f)
        try await f.publish("After")
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        _ = try connection.simpleQuery("UPDATE webhook_subscriptions SET position_xid = '0' WHERE id = \(subscription.id)")
        try Self.waitUntilFeedIsFinal(f)
        let transport = ScriptedTransport()
        let deliverer = Self.deliverer(f, transport, Self.clock())
        try Self.drain(deliverer)
        #expect(transport.sent.map(\.attributesType) == ["After"])
        let snapshot = try connection.simpleQuery("SELECT start_snapshot IS NULL FROM webhook_subscriptions WHERE id = \(subscription.id)")
        #expect(snapshot.rows.first?.values.first == "t", "past the snapshot, the position alone decides")
        #expect(try await f.store.redeliverWebhook(application: f.application, id: subscription.id, .since(.start), by: .cli))
        try Self.drain(deliverer)
        #expect(transport.sent.map(\.attributesType) == ["After", "Before", "After"])
    }

    /// An event is handed out only after its transaction commits and every older one ended.
    @Test func nothingIsSentBeforeItsCommit() async throws {
        let f = try Fixture()
        _ = try await Self.subscribe(f)
        let transport = ScriptedTransport()
        let deliverer = Self.deliverer(f, transport, Self.clock())
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        _ = try connection.simpleQuery("BEGIN")
        _ = try connection.simpleQuery(
            "INSERT INTO change_events (application_id, kind, attributes_type, version) VALUES (\(f.application.id), 'published', 'Held', 1)")
        try await f.publish("Ride")
        try Self.drain(deliverer)
        #expect(transport.sent.isEmpty, "the open transaction is older: nothing after it is final")
        _ = try connection.simpleQuery("COMMIT")
        try Self.waitUntilFeedIsFinal(f)
        try Self.drain(deliverer)
        #expect(transport.sent.count == 2)
    }
}
