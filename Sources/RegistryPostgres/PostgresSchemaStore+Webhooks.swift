import Registry

/// Managing webhook subscriptions: each call is one statement, awaited (on an event loop, on the
/// loop's sessions); each change is one statement with its audit event (the
/// subscription's id added to the event's details in SQL). A secret is written in its stored
/// form (`WebhookSecretEnvelope.stored`: sealed when the store has a key) by the same statement.
/// Delivery is `WebhookQueue`'s.
extension PostgresSchemaStore {
    /// Subscriptions one application may have; creating more is a 400.
    public static let maxWebhooksPerApplication = 100

    public func webhooks(application: Application) async throws -> [WebhookSubscription] {
        try await pool.value(of:
            StoreStatement(statement: Self.webhookList, parameters: [application.id, Int64(Self.maxWebhooksPerApplication)]) {
                try $0.rows.map { try WebhookSubscription(row: $0) }
            })
    }

    public func webhook(application: Application, id: Int64) async throws -> WebhookSubscription? {
        try await pool.value(of:
            StoreStatement(statement: Self.webhookGet, parameters: [application.id, id]) {
                try $0.rows.first.map { try WebhookSubscription(row: $0) }
            })
    }

    public func createWebhook(application: Application, settings: WebhookSettings, secret: String, by actor: AuditActor) async throws
        -> WebhookSubscription
    {
        guard try await webhooks(application: application).count < Self.maxWebhooksPerApplication else {
            throw RegistryError.invalidArgument("an application has at most \(Self.maxWebhooksPerApplication) webhooks")
        }
        let event = Self.webhookAudit(application, .webhookCreate, actor, settings)
        let parameters: [(any PGParameter)?] = [
            application.id, settings.url ?? "", Self.eventList(settings.events ?? []), settings.typePrefix ?? "",
            settings.description ?? "", settings.enabled ?? true, WebhookSecretEnvelope.stored(secret, key: webhookSecretKey),
        ]
        return try await pool.value(of:
            StoreStatement(statement: Self.webhookCreate, parameters: parameters + event.parameters, retry: .never) {
                guard let row = $0.rows.first else { throw RegistryError.internal("the webhook was not written") }
                return try WebhookSubscription(row: row)
            })
    }

    public func updateWebhook(application: Application, id: Int64, settings: WebhookSettings, by actor: AuditActor) async throws
        -> WebhookSubscription?
    {
        let event = Self.webhookAudit(application, .webhookUpdate, actor, settings)
        let parameters: [(any PGParameter)?] = [
            application.id, id, settings.url, settings.events.map(Self.eventList), settings.typePrefix, settings.description,
            settings.enabled,
        ]
        return try await pool.value(of:
            StoreStatement(statement: Self.webhookUpdate, parameters: parameters + event.parameters, retry: .never) {
                try $0.rows.first.map { try WebhookSubscription(row: $0) }
            })
    }

    public func deleteWebhook(application: Application, id: Int64, by actor: AuditActor) async throws -> Bool {
        let event = AuditRecord(accountID: application.accountID, actor: actor, action: .webhookDelete, applicationID: application.id)
        return try await pool.value(of:
            StoreStatement(statement: Self.webhookDelete, parameters: [application.id, id] + event.parameters, retry: .never) {
                !$0.rows.isEmpty
            })
    }

    public func rotateWebhookSecret(application: Application, id: Int64, secret: String, graceSeconds: Int, by actor: AuditActor)
        async throws -> WebhookSubscription?
    {
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .webhookRotateSecret, applicationID: application.id,
            details: ["grace_seconds": .number(String(graceSeconds))])
        let parameters: [(any PGParameter)?] = [
            application.id, id, WebhookSecretEnvelope.stored(secret, key: webhookSecretKey), graceSeconds,
        ]
        return try await pool.value(of:
            StoreStatement(statement: Self.webhookRotateSecret, parameters: parameters + event.parameters, retry: .never) {
                try $0.rows.first.map { try WebhookSubscription(row: $0) }
            })
    }

    public func queueWebhookTest(application: Application, id: Int64) async throws -> Int64? {
        try await pool.value(of:
            StoreStatement(statement: Self.webhookQueueTest, parameters: [application.id, id], retry: .never) {
                try $0.rows.first.map { try $0.int64(0) }
            })
    }

    public func redeliverWebhook(application: Application, id: Int64, _ redelivery: WebhookRedelivery, by actor: AuditActor) async throws
        -> Bool
    {
        let (statement, cursor, shown): (PGStatement, ChangeCursor, String) = switch redelivery {
        case .event(let cursor): (Self.webhookRedeliverEvent, cursor, "event")
        case .since(let cursor): (Self.webhookRedeliverSince, cursor, "since")
        }
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .webhookRedeliver, applicationID: application.id,
            details: ["redeliver": .string(shown), "xid": .string(String(cursor.xid)), "id": .number(String(cursor.id))])
        let parameters: [(any PGParameter)?] = [application.id, id, String(cursor.xid), cursor.id]
        return try await pool.value(of:
            StoreStatement(statement: statement, parameters: parameters + event.parameters, retry: .never) { !$0.rows.isEmpty })
    }

    public func webhookAttempts(application: Application, id: Int64, before: Int64?, limit: Int) async throws -> [WebhookAttempt]? {
        guard try await webhook(application: application, id: id) != nil else { return nil }
        return try await pool.value(of:
            StoreStatement(statement: Self.webhookAttemptsRead, parameters: [application.id, id, before, Int64(max(1, limit))]) {
                try $0.rows.map { row in
                    WebhookAttempt(
                        id: try row.int64(0), at: try row.string(1), messageID: try row.string(2), eventType: try row.string(3),
                        status: Int(try row.int32(4)), succeeded: try row.bool(5), latencyMilliseconds: Int(try row.int32(6)),
                        error: try row.string(7), responseHead: try row.string(8))
                }
            })
    }

    /// The event kinds as the `events` column's array text, `string_to_array`'s input.
    static func eventList(_ kinds: [ChangeKind]) -> String {
        kinds.map(\.rawValue).joined(separator: ",")
    }

    /// A create or update's audit event: what was set, never a secret.
    private static func webhookAudit(_ application: Application, _ action: AuditAction, _ actor: AuditActor, _ settings: WebhookSettings)
        -> AuditRecord
    {
        var details: JSONObject = [:]
        if let url = settings.url { details["url"] = .string(url) }
        if let events = settings.events { details["events"] = .array(events.map { .string($0.rawValue) }) }
        if let prefix = settings.typePrefix { details["type_prefix"] = .string(prefix) }
        if let enabled = settings.enabled { details["enabled"] = .bool(enabled) }
        return AuditRecord(accountID: application.accountID, actor: actor, action: action, applicationID: application.id, details: details)
    }

    static let webhookList = PGStatement(file: "webhook_list")
    static let webhookGet = PGStatement(file: "webhook_get")
    static let webhookCreate = PGStatement(file: "webhook_create")
    static let webhookUpdate = PGStatement(file: "webhook_update")
    static let webhookDelete = PGStatement(file: "webhook_delete")
    static let webhookRotateSecret = PGStatement(file: "webhook_rotate_secret")
    static let webhookQueueTest = PGStatement(file: "webhook_queue_test")
    static let webhookRedeliverEvent = PGStatement(file: "webhook_redeliver_event")
    static let webhookRedeliverSince = PGStatement(file: "webhook_redeliver_since")
    static let webhookAttemptsRead = PGStatement(file: "webhook_attempts")
}

extension WebhookSubscription {
    /// The columns every subscription read selects, in their order (see webhook_get.sql).
    init(row: PGRow) throws {
        let events = try row.string(3).split(separator: ",").map { kind in
            guard let parsed = ChangeKind(rawValue: String(kind)) else {
                throw PGError(kind: .unexpectedResult, debugDetail: "unknown webhook event kind")
            }
            return parsed
        }
        self.init(
            id: try row.int64(0), applicationID: try row.int64(1), url: try row.string(2), events: events,
            typePrefix: try row.string(4), description: try row.string(5), enabled: try row.bool(6),
            disabledReason: try row.optionalString(7), previousSecretUntil: try row.optionalString(8), failures: Int(try row.int32(9)),
            nextAttemptAt: try row.string(10), created: try row.string(11), updated: try row.string(12))
    }
}
