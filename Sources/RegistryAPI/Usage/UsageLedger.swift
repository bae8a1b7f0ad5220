import Registry

/// How much reading the API may count between flushes, from configuration.
public struct UsageSettings: Sendable {
    /// Distinct (version, token, day) entries held in memory between flushes, across threads;
    /// reads of new keys past it are not counted until the next flush.
    public var maxEntries: Int

    public init(maxEntries: Int = 20_000) {
        self.maxEntries = maxEntries
    }
}

/// Reads counted in memory (`UsageCounter`) and added to the store by `flush`, which the
/// server calls every few seconds and once more at a clean shutdown: a crash loses at most
/// the reads since the last flush.
///
/// One flush runs at a time. A flush drains the counter before its write commits, so a usage
/// answer whose own flush overlapped another would read the store without the counts that
/// other flush holds; waiting for its turn, it reads them.
struct UsageLedger: Sendable {
    let counter: UsageCounter
    let store: Storage
    private let turn = HeavyWorkGate(
        permits: 1, maxWaiting: PlacementLimits.waitingHeavyRequests,
        refusal: .unavailable("the server is busy writing version reads; retry in a moment", retryAfterSeconds: 1))

    init(counter: UsageCounter, store: Storage) {
        self.counter = counter
        self.store = store
    }

    /// Counts the version a successful answer was about, by the token that asked, on the UTC
    /// day of `now`. Answers that failed read nothing for the caller, and are not counted.
    func record(_ read: VersionRead?, by token: TokenGrant?, status: Int, now: Double) {
        guard let read, let token, (200..<400).contains(status) else { return }
        let key = UsageKey(
            applicationID: read.applicationID, attributesType: read.attributesType, version: read.version, tokenID: token.id,
            day: UsageKey.day(ofUnixSeconds: now))
        counter.record(key, at: now)
    }

    /// Adds everything counted so far to the store in one statement, after any flush in
    /// progress, and returns how many entries it wrote. When the store fails, the counts are
    /// kept for the next flush.
    /// - Parameter call: the request about to read usage, on whose event loop the write holds
    ///   no thread; nil for the server's own flushes.
    @discardableResult
    func flush(for call: Call? = nil) async throws(RegistryError) -> Int {
        try await turn.holding { () async throws(RegistryError) in
            let drained = counter.drain()
            guard !drained.isEmpty else { return 0 }
            let counts = drained.map { (key: $0.key, tally: $0.value) }
            do throws(RegistryError) {
                if let call {
                    try await call.read { try await $0.addReads(counts) }
                } else {
                    try await store.value { try await $0.addReads(counts) }
                }
            } catch {
                counter.restore(drained)
                throw error
            }
            return drained.count
        }
    }
}
