/// What the probes and metrics need from the process around the API: readiness (database
/// reachable, migrations current, not shutting down) and the gauges owned by other parts.
public struct Operations: Sendable {
    /// nil when ready, else the reason for a 503.
    public var unreadyReason: @Sendable () -> String?
    /// Values read at scrape time (pool, cache, build info).
    public var gauges: @Sendable () -> [Gauge]
    /// True while no primary database is reachable but a standby serves reads; asked only when
    /// `unreadyReason` found nothing wrong.
    public var isReadOnly: @Sendable () -> Bool
    /// Whether `/readyz` answers 200 while read-only: reads are served, writes are refused.
    public var readOnlyIsReady: Bool

    public init(
        unreadyReason: @escaping @Sendable () -> String? = { nil }, gauges: @escaping @Sendable () -> [Gauge] = { [] },
        isReadOnly: @escaping @Sendable () -> Bool = { false }, readOnlyIsReady: Bool = true
    ) {
        self.unreadyReason = unreadyReason
        self.gauges = gauges
        self.isReadOnly = isReadOnly
        self.readOnlyIsReady = readOnlyIsReady
    }
}
