import Foundation
import Registry
import Synchronization

/// Delivers webhooks from the change feed: each of its threads claims one due subscription at a
/// time under a lease, sends the subscription's next events in feed order, and moves its
/// position only past an event that was delivered (or that its filter skips). A failure gives
/// the lease back with the next attempt scheduled by `WebhookBackoff`, so that subscription's
/// later events wait behind it while every other subscription goes on. Events are read only
/// once final (`registry_feed_horizon`), so nothing is sent before its commit.
///
/// Signing secrets are opened with the operator's key just before each delivery is signed, and
/// nowhere else. One that does not open (sealed with no key here, or another key) sends
/// nothing: the attempt is logged with the reason, and the subscription is tried again on the
/// backoff schedule but never disabled for it, so it resumes once the replica has the key.
///
/// Runs on threads of its own (a delivery blocks for up to its timeout), never on an event loop.
public final class WebhookDeliverer: Sendable {
    public struct Settings: Sendable {
        public var threads: Int
        public var leaseSeconds: Double
        public var pollSeconds: Double
        public var backoff: WebhookBackoff
        /// Events read per page of a subscription's queue.
        public var pageSize: Int

        public init(threads: Int = 2, leaseSeconds: Double = 60, pollSeconds: Double = 1, backoff: WebhookBackoff = WebhookBackoff(), pageSize: Int = 50) {
            self.threads = threads
            self.leaseSeconds = leaseSeconds
            self.pollSeconds = pollSeconds
            self.backoff = backoff
            self.pageSize = pageSize
        }
    }

    /// Attempts since start, by outcome, for metrics.
    public struct Counts: Sendable, Equatable {
        public var delivered = 0
        public var failed = 0
        public var disabled = 0
        /// Deliveries not sent because the signing secret did not open.
        public var secretUnreadable = 0
    }

    private let queue: WebhookQueue
    private let transport: any WebhookTransport
    /// Opens sealed signing secrets: the current key and the old keys of a rotation.
    private let keyring: WebhookSecretKeyring?
    private let settings: Settings
    private let clock: @Sendable () -> Double
    private let jitter: @Sendable () -> Double
    private let cursorToken: @Sendable (ChangeCursor) -> String
    private let onError: @Sendable (any Error) -> Void
    private let onUnreadableSecret: @Sendable (_ subscription: Int64, WebhookSecretUnreadable) -> Void
    /// Names this process in leases and the attempt log.
    public let replica: String
    private let state = Mutex(State())

    private struct State {
        var running = false
        var threadsRunning = 0
        var counts = Counts()
    }

    public init(
        pool: ConnectionPool, transport: any WebhookTransport, keyring: WebhookSecretKeyring? = nil, settings: Settings = Settings(),
        replica: String, clock: @escaping @Sendable () -> Double, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        cursorToken: @escaping @Sendable (ChangeCursor) -> String, onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onUnreadableSecret: @escaping @Sendable (_ subscription: Int64, WebhookSecretUnreadable) -> Void = { _, _ in }
    ) {
        queue = WebhookQueue(pool: pool)
        self.transport = transport
        self.keyring = keyring
        self.settings = settings
        self.replica = replica
        self.clock = clock
        self.jitter = jitter
        self.cursorToken = cursorToken
        self.onError = onError
        self.onUnreadableSecret = onUnreadableSecret
    }

    public var counts: Counts { state.withLock { $0.counts } }

    public func queueStatistics() throws -> (depth: Int, oldestSeconds: Double) { try queue.queueStatistics() }

    public func start() {
        state.withLock {
            $0.running = true
            $0.threadsRunning = settings.threads
        }
        for _ in 0..<settings.threads {
            Thread.detachNewThread { [self] in
                while state.withLock({ $0.running }) {
                    var worked = false
                    do {
                        worked = try deliverDue()
                    } catch {
                        onError(error)
                    }
                    if !worked { Thread.sleep(forTimeInterval: settings.pollSeconds) }
                }
                state.withLock { $0.threadsRunning -= 1 }
            }
        }
    }

    /// Asks the threads to stop after the delivery each is making, and waits up to `seconds`.
    public func stop(waitingSeconds seconds: Double) {
        state.withLock { $0.running = false }
        let deadline = Date().addingTimeInterval(seconds)
        while state.withLock({ $0.threadsRunning > 0 }), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    }

    /// Claims one due subscription and works its queue until it is empty, a delivery fails or
    /// the lease is lost. False when none was due.
    @discardableResult
    public func deliverDue() throws -> Bool {
        guard var claim = try queue.claim(holder: replica, now: clock(), leaseSeconds: settings.leaseSeconds) else { return false }
        defer { try? queue.prune(claim) }
        while let extra = try queue.nextExtra(subscription: claim.id) {
            let message: WebhookMessage
            if extra.isTest {
                message = WebhookMessage(testNumber: extra.id, applicationCode: claim.application.code, time: extra.time)
            } else if let event = extra.event {
                message = WebhookMessage(event: event, applicationCode: claim.application.code, cursorToken: cursorToken(event.cursor))
            } else {
                try queue.extraDone(extra.id)
                continue
            }
            guard try send(message, &claim) else { return true }
            try queue.extraDone(extra.id)
            guard try queue.succeeded(claim, holder: replica, now: clock(), leaseSeconds: settings.leaseSeconds) else { return true }
        }
        while true {
            let page = try queue.events(of: claim, limit: settings.pageSize)
            var skipped: ChangeCursor?
            for event in page.events {
                guard wants(claim, event) else {
                    skipped = event.cursor
                    continue
                }
                if let passed = skipped {
                    guard try moved(&claim, to: passed) else { return true }
                    skipped = nil
                }
                let message = WebhookMessage(event: event, applicationCode: claim.application.code, cursorToken: cursorToken(event.cursor))
                guard try send(message, &claim) else { return true }
                guard try moved(&claim, to: event.cursor) else { return true }
            }
            if let passed = skipped { guard try moved(&claim, to: passed) else { return true } }
            guard page.more, !page.events.isEmpty else { break }
        }
        try queue.release(claim, holder: replica)
        return true
    }

    private func moved(_ claim: inout WebhookQueue.Claim, to cursor: ChangeCursor) throws -> Bool {
        guard try queue.advance(claim, to: cursor, holder: replica, now: clock(), leaseSeconds: settings.leaseSeconds) else { return false }
        claim.position = cursor
        claim.failures = 0
        return true
    }

    /// Whether the subscription wants `event`: committed after the subscription was created, its
    /// kind, and a type name starting with the prefix's bytes (a policy change of the
    /// application names no type: only "" matches it).
    func wants(_ claim: WebhookQueue.Claim, _ event: ChangeEvent) -> Bool {
        if let snapshot = claim.startSnapshot, snapshot.sees(event.cursor.xid) { return false }
        guard claim.events.contains(event.kind) else { return false }
        guard !claim.typePrefix.isEmpty else { return true }
        guard let type = event.attributesType else { return false }
        return Array(type.utf8).starts(with: Array(claim.typePrefix.utf8))
    }

    /// Sends one message and records the attempt; on failure schedules the next attempt (or
    /// disables the subscription) and gives the lease back. True when it was delivered.
    private func send(_ message: WebhookMessage, _ claim: inout WebhookQueue.Claim) throws -> Bool {
        let timestamp = clock()
        let secrets: [String]
        do throws(WebhookSecretUnreadable) {
            secrets = try claim.storedSecrets.map { stored throws(WebhookSecretUnreadable) in
                try WebhookSecretEnvelope.open(stored, keyring: keyring)
            }
        } catch {
            try postpone(message, claim, at: timestamp, because: error)
            return false
        }
        let headers: [(name: String, value: String)] = [
            ("content-type", "application/json"),
            ("webhook-id", message.id),
            ("webhook-timestamp", String(Int64(timestamp))),
            ("webhook-signature", WebhookSignature.header(secrets: secrets, messageID: message.id, timestamp: Int64(timestamp), body: message.body)),
        ]
        let started = ContinuousClock.now
        let response = transport.post(url: claim.url, headers: headers, body: message.body)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        try queue.record(claim, at: timestamp, message: message, response: response, latencyMilliseconds: milliseconds, replica: replica)
        if response.succeeded {
            state.withLock { $0.counts.delivered += 1 }
            return true
        }
        let now = clock()
        let firstFailure = claim.firstFailureAt ?? now
        if response.receiverGone || settings.backoff.givesUp(firstFailureAt: firstFailure, now: now) {
            let reason = response.receiverGone
                ? "the receiver answered 410 Gone"
                : "deliveries failed for \(Int(now - firstFailure)) s (\(claim.failures + 1) attempts); last: \(response.failure ?? "")"
            _ = try queue.disable(claim, holder: replica, reason: reason)
            state.withLock { $0.counts.disabled += 1 }
        } else {
            let delay = settings.backoff.delay(afterFailures: claim.failures + 1, jitter: jitter())
            _ = try queue.failed(claim, holder: replica, now: now, nextAttemptAt: now + delay)
            state.withLock { $0.counts.failed += 1 }
        }
        return false
    }

    /// Records an attempt that sent nothing because a secret did not open, and tries again on
    /// the backoff schedule.
    private func postpone(_ message: WebhookMessage, _ claim: WebhookQueue.Claim, at timestamp: Double, because reason: WebhookSecretUnreadable)
        throws
    {
        let response = WebhookResponse(status: 0, error: reason.description)
        try queue.record(claim, at: timestamp, message: message, response: response, latencyMilliseconds: 0, replica: replica)
        state.withLock { $0.counts.secretUnreadable += 1 }
        onUnreadableSecret(claim.id, reason)
        let delay = settings.backoff.delay(afterFailures: claim.failures + 1, jitter: jitter())
        _ = try queue.postponed(claim, holder: replica, nextAttemptAt: clock() + delay)
    }
}
