import CMicroHTTPD
import Synchronization

/// Every run of a daemon goes through here. libmicrohttpd takes its listening socket out of its
/// epoll set when it reaches its connection limit, and puts it back only at the start of a later
/// run, once connections have closed. Its own threads would run again at once; under our loop
/// nothing might (no timeout pending, no descriptor ready), and connections queued meanwhile
/// would wait unaccepted until some unrelated event. So a run that closed connections is
/// followed by another, which listens again and accepts what is queued.
enum DaemonRun {
    /// Connections closed by any daemon of the process (`MHD_CONNECTION_NOTIFY_CLOSED`).
    static let closedConnections = Atomic<Int>(0)

    /// A few runs at most: each one listens again if it can, so more are only needed when one
    /// reached the limit and closed connections again.
    static func run(_ daemon: OpaquePointer) {
        for _ in 0..<4 {
            let closed = closedConnections.load(ordering: .relaxed)
            MHD_run(daemon)
            guard closedConnections.load(ordering: .relaxed) != closed else { return }
        }
    }
}
