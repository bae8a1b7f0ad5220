import Registry
import RegistryAPI
import RegistryPostgres

/// The webhook figures `/metrics` shows: attempts by outcome since start (this replica's;
/// `secret_unreadable` counts deliveries not sent because the signing secret did not open), and
/// from the database the undelivered events of every enabled subscription and the age of the
/// oldest, which every replica reports alike.
enum WebhookGauges {
    static func read(_ deliverer: WebhookDeliverer, logger: Logger) -> [Gauge] {
        let counts = deliverer.counts
        var gauges = [
            Gauge(
                "registry_webhook_deliveries_total", "Webhook delivery attempts by this process since start, by outcome.",
                labels: ["outcome": "delivered"], value: Double(counts.delivered), type: "counter"),
            Gauge(
                "registry_webhook_deliveries_total", "Webhook delivery attempts by this process since start, by outcome.",
                labels: ["outcome": "failed"], value: Double(counts.failed), type: "counter"),
            Gauge(
                "registry_webhook_deliveries_total", "Webhook delivery attempts by this process since start, by outcome.",
                labels: ["outcome": "disabled"], value: Double(counts.disabled), type: "counter"),
            Gauge(
                "registry_webhook_deliveries_total", "Webhook delivery attempts by this process since start, by outcome.",
                labels: ["outcome": "secret_unreadable"], value: Double(counts.secretUnreadable), type: "counter"),
        ]
        do {
            let queue = try deliverer.queueStatistics()
            gauges.append(Gauge("registry_webhook_queue_depth", "Events enabled webhook subscriptions have not delivered yet.", value: Double(queue.depth)))
            gauges.append(
                Gauge(
                    "registry_webhook_oldest_undelivered_seconds", "Age of the oldest event an enabled webhook subscription has not delivered.",
                    value: queue.oldestSeconds))
        } catch {
            logger.log(.warning, "could not read the webhook queue", RegistryError.logFields(of: error))
        }
        return gauges
    }
}
