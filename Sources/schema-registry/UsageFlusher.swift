import Dispatch
import Registry
import RegistryAPI

/// Adds the version reads counted in memory to the database every interval, on one serial
/// queue, so that a flush never overlaps the next and the last one, at shutdown, runs after
/// any timer flush in progress. A failed flush keeps its counts for the next.
final class UsageFlusher {
    private let queue = DispatchQueue(label: "usage-flush")
    private let timer: DispatchSourceTimer
    private let api: RegistryAPI
    private let logger: Logger

    init(api: RegistryAPI, everyMilliseconds interval: Int, logger: Logger) {
        self.api = api
        self.logger = logger
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval))
        timer.setEventHandler { [api, logger] in Self.flush(api, logger) }
        timer.resume()
    }

    /// Stops the timer and flushes once more, after the flush in progress if any: for a clean
    /// shutdown, once every request has been answered.
    func stop() {
        timer.cancel()
        queue.sync { Self.flush(api, logger) }
    }

    private static func flush(_ api: RegistryAPI, _ logger: Logger) {
        do {
            let written = try api.flushUsage()
            if written > 0 { logger.log(.debug, "flushed version reads", ["entries": .number(String(written))]) }
        } catch {
            logger.log(.warning, "could not flush version reads; kept for the next flush", RegistryError.logFields(of: error))
        }
    }
}
