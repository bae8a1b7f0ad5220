import Dispatch
import Registry
import RegistryAPI

/// Adds the version reads counted in memory to the database every interval, from one task, so
/// that a timer flush never overlaps the next; the last one, at shutdown, runs after the flush
/// in progress if any. A failed flush keeps its counts for the next.
///
/// The task runs on no event loop, so its one statement blocks a pooled session (and the
/// task's thread) for the moment it takes.
final class UsageFlusher: Sendable {
    private let task: Task<Void, Never>
    private let api: RegistryAPI
    private let logger: Logger

    init(api: RegistryAPI, everyMilliseconds interval: Int, logger: Logger) {
        self.api = api
        self.logger = logger
        task = Task {
            while (try? await Task.sleep(for: .milliseconds(interval))) != nil {
                await Self.flush(api, logger)
            }
        }
    }

    /// Stops the timer and flushes once more, after the flush in progress if any: for a clean
    /// shutdown, once every request has been answered. Blocks until that flush is done.
    func stop() {
        let done = DispatchSemaphore(value: 0)
        Task { [task, api, logger] in
            task.cancel()
            await task.value
            await Self.flush(api, logger)
            done.signal()
        }
        done.wait()
    }

    private static func flush(_ api: RegistryAPI, _ logger: Logger) async {
        do {
            let written = try await api.flushUsage()
            if written > 0 { logger.log(.debug, "flushed version reads", ["entries": .number(String(written))]) }
        } catch {
            logger.log(.warning, "could not flush version reads; kept for the next flush", RegistryError.logFields(of: error))
        }
    }
}
