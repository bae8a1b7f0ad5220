import HTTPServer
import Registry

/// An application's webhook subscriptions at `/api/applications/{application}/webhooks`:
/// managed with an admin token, every change audited. The signing secret is in the answer of
/// creating and of rotating, and nowhere else. Each call is a statement or two awaited on the
/// loop; creating and changing the URL first resolve its host on a handler thread, since the
/// resolver blocks.
enum WebhookHandlers {
    /// Grace period of a rotated secret unless the request names one: a day, like the retries.
    static let defaultGraceSeconds = 86_400
    static let maxGraceSeconds = 7 * 86_400
    static let defaultDeliveriesPage = 50
    static let maxDeliveriesPage = 200

    static func list(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let application = try await call.application(code: try applicationCode(call))
        let subscriptions = try await call.read { try await $0.webhooks(application: application) }
        return JSONResponse.make(["webhooks": .array(subscriptions.map { json($0, application) })])
    }

    static func create(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let application = try await call.application(code: try applicationCode(call))
        let (settings, destination) = try WebhookRequest.settings(body, creating: true, policy: call.destinations)
        let secret = WebhookSecret.generate()
        try await checked(destination, call)
        let created = try await call.read {
            try await $0.createWebhook(application: application, settings: settings, secret: secret, by: call.actor)
        }
        return JSONResponse.make(["webhook": json(created, application), "secret": .string(secret)])
    }

    /// The destination's host resolved and checked against the operator's policy, on a handler
    /// thread: the resolver blocks.
    private static func checked(_ destination: WebhookDestination?, _ call: Call) async throws(RegistryError) {
        guard let destination else { return }
        try await call.work { () throws(RegistryError) in try WebhookAddressCheck.check(destination, policy: call.destinations) }
    }

    static func get(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (application, id) = try await addressed(call)
        let found = try await call.read { try await $0.webhook(application: application, id: id) }
        guard let found else { throw notFound(id) }
        return JSONResponse.make(["webhook": json(found, application)])
    }

    static func update(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let (application, id) = try await addressed(call)
        let (settings, destination) = try WebhookRequest.settings(body, creating: false, policy: call.destinations)
        try await checked(destination, call)
        let updated = try await call.read {
            try await $0.updateWebhook(application: application, id: id, settings: settings, by: call.actor)
        }
        guard let updated else { throw notFound(id) }
        return JSONResponse.make(["webhook": json(updated, application)])
    }

    static func delete(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (application, id) = try await addressed(call)
        let deleted = try await call.read { try await $0.deleteWebhook(application: application, id: id, by: call.actor) }
        guard deleted else { throw notFound(id) }
        return JSONResponse.make([:])
    }

    /// A new secret; the old one signs beside it for `grace_seconds` (default a day, 0 to end
    /// it now), so receivers can switch without missing a delivery.
    static func rotateSecret(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = call.request.body.isEmpty ? nil : try call.body()
        let (application, id) = try await addressed(call)
        var grace = defaultGraceSeconds
        switch try body?.value(.graceSeconds) {
        case nil, .null?: break
        case .number(let text)?:
            // A JSON number with a zero fraction (`60.0`) is an integer too.
            guard let seconds = Int(text) ?? Double(text).flatMap({ $0 == $0.rounded() && abs($0) <= 1e9 ? Int($0) : nil }),
                (0...maxGraceSeconds).contains(seconds)
            else {
                throw .invalidArgument("grace_seconds: must be an integer from 0 to \(maxGraceSeconds)")
            }
            grace = seconds
        case let other?: throw .invalidArgument("grace_seconds: must be an integer, not \(other.typeName)")
        }
        let secret = WebhookSecret.generate()
        let rotated = try await call.read { [grace] in
            try await $0.rotateWebhookSecret(application: application, id: id, secret: secret, graceSeconds: grace, by: call.actor)
        }
        guard let rotated else { throw notFound(id) }
        return JSONResponse.make(["webhook": json(rotated, application), "secret": .string(secret)])
    }

    /// Queues a test event, sent before the subscription's next feed event.
    static func test(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (application, id) = try await addressed(call)
        let number = try await call.read { try await $0.queueWebhookTest(application: application, id: id) }
        guard let number else { throw notFound(id) }
        return JSONResponse.make(["webhook_id": .string(WebhookMessage.testID(number))])
    }

    /// `{"event": cursor}` sends the event at that cursor (a delivery body's `cursor`) again;
    /// `{"since": cursor}` sends every matching event after it again, in order.
    static func redeliver(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let (application, id) = try await addressed(call)
        let redelivery: WebhookRedelivery
        switch (try body.string(.event), try body.string(.since)) {
        case (let event?, nil): redelivery = .event(try ChangeCursorToken.decode(event, field: "event"))
        case (nil, let since?): redelivery = .since(try ChangeCursorToken.decode(since, field: "since"))
        default: throw .invalidArgument("give one of event (one event's cursor) or since (a cursor)")
        }
        let done = try await call.read { try await $0.redeliverWebhook(application: application, id: id, redelivery, by: call.actor) }
        guard done else {
            if case .event = redelivery { throw .notFound("webhook \(id) or the event at that cursor not found") }
            throw notFound(id)
        }
        return JSONResponse.make([:])
    }

    /// The delivery log, newest first, `page_size` at a time; `next_page_token` continues.
    static func deliveries(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (application, id) = try await addressed(call)
        var size = defaultDeliveriesPage
        if let text = try call.query.string(.pageSize), !text.isEmpty {
            guard let number = Int(text), (1...maxDeliveriesPage).contains(number) else {
                throw .invalidArgument("page_size: must be an integer from 1 to \(maxDeliveriesPage)")
            }
            size = number
        }
        let before = try call.query.pageToken { token throws(RegistryError) -> Int64 in
            guard let number = Int64(token), number > 0 else { throw .invalidArgument("page_token: not one this service issued") }
            return number
        }
        let attempts = try await call.read { try await $0.webhookAttempts(application: application, id: id, before: before, limit: size + 1) }
        guard var attempts else { throw notFound(id) }
        let nextToken = PageToken.trim(&attempts, to: size) { String($0.id) }
        var answer: JSONObject = [
            "deliveries": .array(attempts.map { attempt in
                [
                    "id": .number(String(attempt.id)), "at": .string(attempt.at), "webhook_id": .string(attempt.messageID),
                    "cursor": WebhookMessage.cursorToken(ofID: attempt.messageID).map(JSONValue.string) ?? .null,
                    "type": .string(attempt.eventType), "status": .number(String(attempt.status)),
                    "succeeded": .bool(attempt.succeeded), "latency_ms": .number(String(attempt.latencyMilliseconds)),
                    "error": .string(attempt.error), "response": .string(attempt.responseHead),
                ]
            })
        ]
        if let nextToken { answer["next_page_token"] = .string(nextToken) }
        return JSONResponse.make(.object(answer))
    }

    private static func applicationCode(_ call: Call) throws(RegistryError) -> String {
        guard let raw = call.rawParameters["application"], let code = PercentDecoding.decode(raw), !code.isEmpty else {
            throw .invalidArgument("application: invalid percent-encoding or not UTF-8 in the path")
        }
        return code
    }

    private static func addressed(_ call: Call) async throws(RegistryError) -> (Application, Int64) {
        let code = try applicationCode(call)
        guard let raw = call.rawParameters["id"], let id = Int64(raw), id > 0 else {
            throw .invalidArgument("id: must be a webhook id (a positive integer)")
        }
        return (try await call.application(code: code), id)
    }

    private static func notFound(_ id: Int64) -> RegistryError {
        .notFound("webhook \(id) not found in this application")
    }

    static func json(_ subscription: WebhookSubscription, _ application: Application) -> JSONValue {
        [
            "id": .number(String(subscription.id)),
            "application": .string(application.code),
            "url": .string(subscription.url),
            "events": .array(subscription.events.map { .string($0.rawValue) }),
            "type_prefix": .string(subscription.typePrefix),
            "description": .string(subscription.description),
            "enabled": .bool(subscription.enabled),
            "disabled_reason": subscription.disabledReason.map(JSONValue.string) ?? .null,
            "previous_secret_until": subscription.previousSecretUntil.map(JSONValue.string) ?? .null,
            "failures": .number(String(subscription.failures)),
            "next_attempt_at": .string(subscription.nextAttemptAt),
            "created": .string(subscription.created),
            "updated": .string(subscription.updated),
        ]
    }
}
