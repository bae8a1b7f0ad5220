/// Managing an application's webhook subscriptions (delivery itself is the store's worker's,
/// not the request path's). Each call is one statement, awaited like the other store calls; each
/// change commits with its audit event. A subscription of another application is unknown (nil/false).
public protocol WebhookStore: Sendable {
    func webhooks(application: Application) async throws -> [WebhookSubscription]

    func webhook(application: Application, id: Int64) async throws -> WebhookSubscription?

    /// Creates a subscription with `secret` (as issued: the store writes it in its stored form,
    /// `WebhookSecretEnvelope.stored`), delivering every change committed after now.
    func createWebhook(application: Application, settings: WebhookSettings, secret: String, by actor: AuditActor) async throws
        -> WebhookSubscription

    /// Replaces the fields `settings` gives; enabling a disabled subscription clears its
    /// reason and failures, so it resumes with the event that held it.
    func updateWebhook(application: Application, id: Int64, settings: WebhookSettings, by actor: AuditActor) async throws
        -> WebhookSubscription?

    func deleteWebhook(application: Application, id: Int64, by actor: AuditActor) async throws -> Bool

    /// Makes `secret` the signing secret; the old one keeps signing beside it for
    /// `graceSeconds`.
    func rotateWebhookSecret(application: Application, id: Int64, secret: String, graceSeconds: Int, by actor: AuditActor)
        async throws -> WebhookSubscription?

    /// Queues a test event, sent before the subscription's next feed event. Nil when unknown;
    /// else the test's number, which names its `webhook-id`.
    func queueWebhookTest(application: Application, id: Int64) async throws -> Int64?

    /// Sends one event again, or moves the subscription back to send everything after a
    /// position again. False when the subscription is unknown.
    func redeliverWebhook(application: Application, id: Int64, _ redelivery: WebhookRedelivery, by actor: AuditActor) async throws
        -> Bool

    /// The newest attempts first, before attempt id `before` when given; nil when unknown.
    func webhookAttempts(application: Application, id: Int64, before: Int64?, limit: Int) async throws -> [WebhookAttempt]?
}
