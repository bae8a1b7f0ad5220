import Registry

/// Version usage as the server drives it: `flushUsage` every few seconds and once more after
/// the last request of a clean shutdown, and the counter's figures for metrics.
extension RegistryAPI {
    /// Adds the reads counted since the last flush to the store in one statement, after any
    /// flush in progress; returns how many (version, token, day) entries it wrote. On failure
    /// the counts are kept for the next flush.
    @discardableResult
    public func flushUsage() async throws(RegistryError) -> Int {
        try await usage.flush()
    }

    /// Entries counted and not flushed yet, and reads not counted because the counter was
    /// full, since start.
    public var usageStatistics: (entries: Int, droppedReads: Int) {
        (usage.counter.count, usage.counter.droppedReads)
    }
}
