/// What the probes and metrics need from the process around the API: readiness (database
/// reachable, migrations current, not shutting down) and the gauges owned by other parts.
public struct Operations: Sendable {
    /// nil when ready, else the reason for a 503.
    public var unreadyReason: @Sendable () -> String?
    /// Values read at scrape time (pool, cache, build info).
    public var gauges: @Sendable () -> [Gauge]

    public init(unreadyReason: @escaping @Sendable () -> String? = { nil }, gauges: @escaping @Sendable () -> [Gauge] = { [] }) {
        self.unreadyReason = unreadyReason
        self.gauges = gauges
    }
}
