import Registry
import Testing

@Suite struct WebhookBackoffTests {
    /// Doubling from 5 s to the hour cap, with jitter spreading each wait over its upper half.
    @Test func delaysDoubleToTheCapWithJitterInTheUpperHalf() {
        let backoff = WebhookBackoff()
        let full = (1...12).map { backoff.delay(afterFailures: $0, jitter: 1) }
        #expect(full == [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600])
        let none = (1...12).map { backoff.delay(afterFailures: $0, jitter: 0) }
        #expect(none == full.map { $0 / 2 })
        #expect(backoff.delay(afterFailures: 1, jitter: 0.5) == 3.75)
        #expect(backoff.delay(afterFailures: 10_000, jitter: 1) == 3600)
        #expect(backoff.delay(afterFailures: 0, jitter: 1) == 5)
    }

    /// The default schedule spans about a day before giving up: about 30 attempts.
    @Test func theDefaultScheduleRetriesForADay() {
        let backoff = WebhookBackoff()
        var elapsed = 0.0
        var attempts = 1
        while !backoff.givesUp(firstFailureAt: 0, now: elapsed) {
            elapsed += backoff.delay(afterFailures: attempts, jitter: 1)
            attempts += 1
        }
        #expect(elapsed >= 86_400 && elapsed < 86_400 + 3600)
        #expect((25...40).contains(attempts))
        #expect(!backoff.givesUp(firstFailureAt: 100, now: 100 + 86_399))
        #expect(backoff.givesUp(firstFailureAt: 100, now: 100 + 86_400))
    }
}
