import Registry

/// The delivery worker's statements: claiming a subscription under a lease, reading what it
/// should send next, and recording each attempt and its outcome. Every write after the claim
/// names the lease holder, so a replica whose lease ran out (and was taken over) changes
/// nothing any more; at worst the event is sent twice, with the same webhook-id.
///
/// Times are the worker's clock (Unix seconds) passed as parameters, so tests drive backoff
/// and leases with a test clock.
public struct WebhookQueue: Sendable {
    let pool: ConnectionPool

    public init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// A subscription taken for delivery.
    public struct Claim: Sendable {
        public let id: Int64
        public let application: Application
        public let url: String
        public let events: [ChangeKind]
        public let typePrefix: String
        /// Newest first: the current secret, then the previous one during its grace period, as
        /// stored (`WebhookSecretEnvelope`): opened only when a delivery is signed.
        public let storedSecrets: [String]
        public var failures: Int
        public let firstFailureAt: Double?
        public var position: ChangeCursor
        /// The snapshot of the statement that created the subscription: the events of the
        /// transactions it sees were committed before, and are not sent. nil once the position
        /// passed it, or after a redelivery of everything since an earlier cursor.
        public let startSnapshot: FeedSnapshot?
    }

    /// One delivery asked for beside the feed.
    public struct Extra: Sendable {
        public let id: Int64
        /// nil for a test event; else the event sent again (nil too when it no longer exists).
        public let event: ChangeEvent?
        public let isTest: Bool
        public let time: String
    }

    public func claim(holder: String, now: Double, leaseSeconds: Double) throws -> Claim? {
        try pool.run(
            StoreStatement(statement: Self.claimNext, parameters: [holder, now, leaseSeconds], retry: .never) { result in
                guard let row = result.rows.first else { return nil }
                let application = Application(
                    id: try row.int64(1), code: try row.string(3), name: try row.string(13), accountID: try row.int64(2),
                    created: try row.string(14))
                let events = try row.string(5).split(separator: ",").compactMap { ChangeKind(rawValue: String($0)) }
                guard let xid = UInt64(try row.string(11)) else { throw RegistryError.internal() }
                var startSnapshot: FeedSnapshot?
                if let text = try row.optionalString(15) {
                    guard let snapshot = FeedSnapshot(text: text) else { throw RegistryError.internal() }
                    startSnapshot = snapshot
                }
                return Claim(
                    id: try row.int64(0), application: application, url: try row.string(4), events: events,
                    typePrefix: try row.string(6), storedSecrets: [try row.string(7)] + [try row.optionalString(8)].compactMap { $0 },
                    failures: Int(try row.int32(9)), firstFailureAt: try row.optionalString(10).flatMap(Double.init),
                    position: ChangeCursor(xid: xid, id: try row.int64(12)), startSnapshot: startSnapshot)
            })
    }

    public func nextExtra(subscription: Int64) throws -> Extra? {
        try pool.run(
            StoreStatement(statement: Self.nextExtraRead, parameters: [subscription]) { result in
                guard let row = result.rows.first else { return nil }
                let isTest = try row.string(1) == "test"
                var event: ChangeEvent?
                if let xidText = try row.optionalString(2), let xid = UInt64(xidText), let kind = ChangeKind(rawValue: try row.string(4)) {
                    event = ChangeEvent(
                        cursor: ChangeCursor(xid: xid, id: try row.int64(3)), kind: kind, attributesType: try row.optionalString(5),
                        version: try row.optionalString(6).flatMap { Int32($0) }, at: try row.string(7))
                }
                return Extra(id: try row.int64(0), event: event, isTest: isTest, time: try row.string(7))
            })
    }

    /// The final feed events after the subscription's position, oldest first.
    public func events(of claim: Claim, limit: Int) throws -> ChangePage {
        try pool.run(PostgresSchemaStore.changesRead(application: claim.application, after: claim.position, limit: limit))
    }

    public func extraDone(_ id: Int64) throws {
        _ = try pool.run(StoreStatement(statement: Self.extraDelete, parameters: [id], retry: .never) { _ in () })
    }

    /// Moves the position past `cursor` (delivered or filtered out) and extends the lease;
    /// false when the lease was lost.
    public func advance(_ claim: Claim, to cursor: ChangeCursor, holder: String, now: Double, leaseSeconds: Double) throws -> Bool {
        try fenced(Self.advancePosition, [claim.id, holder, String(cursor.xid), cursor.id, now, leaseSeconds])
    }

    /// An extra delivery succeeded: failures reset, the lease extended.
    public func succeeded(_ claim: Claim, holder: String, now: Double, leaseSeconds: Double) throws -> Bool {
        try fenced(Self.succeededWrite, [claim.id, holder, now, leaseSeconds])
    }

    /// The head failed: tried again at `nextAttemptAt`; the lease is given back.
    public func failed(_ claim: Claim, holder: String, now: Double, nextAttemptAt: Double) throws -> Bool {
        try fenced(Self.failedWrite, [claim.id, holder, now, nextAttemptAt])
    }

    /// The head cannot be signed (its secret does not open here): tried again at
    /// `nextAttemptAt`, the failures counted for the backoff, and the lease given back. The
    /// retry window is not started: the receiver did not fail, so this never disables.
    public func postponed(_ claim: Claim, holder: String, nextAttemptAt: Double) throws -> Bool {
        try fenced(Self.postponeWrite, [claim.id, holder, nextAttemptAt])
    }

    /// Disables the subscription with `reason` and its audit event.
    public func disable(_ claim: Claim, holder: String, reason: String) throws -> Bool {
        let event = AuditRecord(
            accountID: claim.application.accountID, actor: .cli, action: .webhookDisable, applicationID: claim.application.id,
            details: ["reason": .string(reason), "by": .string("webhook delivery")])
        return try fenced(Self.disableWrite, [claim.id, holder, reason] + event.parameters)
    }

    public func release(_ claim: Claim, holder: String) throws {
        _ = try pool.run(StoreStatement(statement: Self.releaseWrite, parameters: [claim.id, holder], retry: .never) { _ in () })
    }

    public func record(
        _ claim: Claim, at: Double, message: WebhookMessage, response: WebhookResponse, latencyMilliseconds: Int, replica: String
    ) throws {
        let error = String(decoding: Array((response.failure ?? "").utf8.prefix(900)), as: UTF8.self)
        let head = String(decoding: response.head.prefix(WebhookResponse.maxHeadBytes), as: UTF8.self)
        let parameters: [(any PGParameter)?] = [
            claim.id, at, message.id, message.type, response.status, response.succeeded, latencyMilliseconds, error, head, replica,
        ]
        _ = try pool.run(StoreStatement(statement: Self.recordAttempt, parameters: parameters, retry: .never) { _ in () })
    }

    /// Keeps the newest `WebhookAttempt.keptPerSubscription` attempts of a subscription.
    public func prune(_ claim: Claim) throws {
        _ = try pool.run(
            StoreStatement(statement: Self.pruneAttempts, parameters: [claim.id, Int64(WebhookAttempt.keptPerSubscription)], retry: .never) {
                _ in ()
            })
    }

    /// Undelivered events of enabled subscriptions (feed events after their positions and
    /// extra deliveries), and the age in seconds of the oldest feed event among them.
    public func queueStatistics() throws -> (depth: Int, oldestSeconds: Double) {
        try pool.run(
            StoreStatement(statement: Self.queueStats, parameters: []) { result in
                guard let row = result.rows.first else { return (0, 0) }
                return (Int(try row.int64(0)), Double(try row.string(1)) ?? 0)
            })
    }

    private func fenced(_ statement: PGStatement, _ parameters: [(any PGParameter)?]) throws -> Bool {
        try pool.run(StoreStatement(statement: statement, parameters: parameters, retry: .never) { !$0.rows.isEmpty })
    }

    static let claimNext = PGStatement(file: "webhook_claim")
    static let nextExtraRead = PGStatement(file: "webhook_next_extra")
    static let extraDelete = PGStatement(file: "webhook_extra_done")
    static let advancePosition = PGStatement(file: "webhook_advance")
    static let succeededWrite = PGStatement(file: "webhook_succeeded")
    static let failedWrite = PGStatement(file: "webhook_failed")
    static let postponeWrite = PGStatement(file: "webhook_postpone")
    static let disableWrite = PGStatement(file: "webhook_disable")
    static let releaseWrite = PGStatement(file: "webhook_release")
    static let recordAttempt = PGStatement(file: "webhook_record_attempt")
    static let pruneAttempts = PGStatement(file: "webhook_prune_attempts")
    static let queueStats = PGStatement(file: "webhook_queue_stats")
}
