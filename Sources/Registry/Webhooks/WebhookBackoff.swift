/// When a failed delivery is tried again: exponential backoff with jitter, doubling from
/// `firstDelaySeconds` up to `maxDelaySeconds`, for `retryWindowSeconds` after the first
/// failure; then the subscription is disabled. The defaults (5 s doubling to an hour, for a
/// day) try about 30 times, fast at first for a receiver that blinked, then hourly.
public struct WebhookBackoff: Sendable, Equatable {
    public var firstDelaySeconds: Double
    public var maxDelaySeconds: Double
    public var retryWindowSeconds: Double

    public init(firstDelaySeconds: Double = 5, maxDelaySeconds: Double = 3600, retryWindowSeconds: Double = 86_400) {
        self.firstDelaySeconds = firstDelaySeconds
        self.maxDelaySeconds = maxDelaySeconds
        self.retryWindowSeconds = retryWindowSeconds
    }

    /// The wait after the `failures`-th failure in a row (1 for the first). `jitter` in 0..<1
    /// spreads it over the upper half ("equal jitter"), so receivers that failed together are
    /// not retried together, and no wait is shorter than half the schedule.
    public func delay(afterFailures failures: Int, jitter: Double) -> Double {
        let doublings = min(max(failures, 1) - 1, 60)
        let base = min(maxDelaySeconds, firstDelaySeconds * Double(sign: .plus, exponent: doublings, significand: 1))
        return base / 2 + base / 2 * min(max(jitter, 0), 1)
    }

    /// True once retries have run past the window since the first failure in a row: the
    /// subscription is disabled rather than tried again.
    public func givesUp(firstFailureAt first: Double, now: Double) -> Bool {
        now - first >= retryWindowSeconds
    }
}
