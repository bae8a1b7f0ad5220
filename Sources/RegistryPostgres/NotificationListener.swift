import Foundation
import Synchronization

/// Keeps one dedicated session `LISTEN`ing on a channel and hands every payload to
/// `onNotification`, on a thread of its own. Notifications sent while it was disconnected are
/// lost, so every (re)connection calls `onReconnect` first: caches flush everything there.
public final class NotificationListener: Sendable {
    private let config: PostgresConfig
    private let channels: [String]
    private let onNotification: @Sendable (_ payload: String) -> Void
    private let onReconnect: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)
    private let finished = Mutex<Bool>(false)

    /// - Parameter channels: plain identifiers (they are quoted into `LISTEN`).
    public init(
        config: PostgresConfig, channels: [String],
        onNotification: @escaping @Sendable (_ payload: String) -> Void,
        onReconnect: @escaping @Sendable () -> Void
    ) {
        self.config = config
        self.channels = channels
        self.onNotification = onNotification
        self.onReconnect = onReconnect
    }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "registry-listener"
        thread.start()
    }

    /// Asks the thread to end; it notices within one poll interval.
    public func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    private func run() {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            do {
                let connection = try PGConnection.connect(config)
                for channel in channels {
                    _ = try connection.simpleQuery("LISTEN \"\(channel.replacingOccurrences(of: "\"", with: "\"\""))\"")
                }
                onReconnect()
                try listen(on: connection)
            } catch {
                // Unreachable database: try again shortly; readiness reports the outage.
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    private func listen(on connection: PGConnection) throws {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            for payload in try connection.notifications(waitingUpTo: 500) {
                onNotification(payload)
            }
        }
    }
}
