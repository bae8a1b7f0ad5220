import CMicroHTTPD
import EventLoop
import Foundation

/// One libmicrohttpd daemon and the event loop that runs it: one SO_REUSEPORT listening socket
/// served by one thread. Several of them share a port, one per core; MHD's own thread pool was
/// measured to spread connections very unevenly.
///
/// MHD has no thread of its own here: the loop waits on MHD's epoll descriptor beside whatever
/// else the loop's requests wait for (their database sessions), and calls `MHD_run` when it
/// is readable or MHD's next connection timeout is due. So a request can wait for PostgreSQL
/// on the very thread that will answer it.
///
/// `@unchecked Sendable`: the handle is only used on the loop's thread (through `onLoop`), or
/// after the loop has stopped by the one `stop` call that shuts it down.
final class Daemon: @unchecked Sendable {
    private let handle: OpaquePointer
    let loop: EventLoop

    private init(handle: OpaquePointer, loop: EventLoop) {
        self.handle = handle
        self.loop = loop
    }

    static func start(
        address: SocketAddress,
        configuration: HTTPServerConfiguration,
        context: ServerContext,
        index: Int
    ) throws(HTTPServerError) -> Daemon {
        context.lastLogMessage.withLock { $0 = nil }
        let handle = address.withSockaddr { sockaddr, _ in
            var settings = CMHDDaemonSettings(
                address: sockaddr,
                is_ipv6: address.isIPv6,
                connection_memory_limit: configuration.connectionMemoryLimitBytes,
                connection_timeout_seconds: UInt32(configuration.connectionTimeoutSeconds),
                connection_limit: UInt32(configuration.connectionLimitPerEventLoop),
                per_address_connection_limit: UInt32(configuration.connectionLimitPerAddressPerEventLoop),
                max_query_parameters: UInt32(configuration.maxQueryParameters),
                access_handler: Callbacks.access,
                completed_handler: Callbacks.completed,
                connection_handler: Callbacks.connection,
                unescape: Callbacks.keepEscaped,
                logger: Callbacks.log,
                context: context.opaque
            )
            return cmhd_start_daemon(&settings)
        }
        guard let handle else {
            let detail = context.lastLogMessage.withLock { $0 } ?? "no detail from libmicrohttpd"
            throw HTTPServerError("cannot start an HTTP daemon on \(address.description): \(detail)")
        }
        let daemon: Daemon
        do {
            daemon = Daemon(handle: handle, loop: try EventLoop())
            try daemon.loop.watch(cmhd_daemon_epoll_fd(handle), interest: .read) { _ in DaemonRun.run(handle) }
        } catch {
            MHD_stop_daemon(handle)
            throw HTTPServerError("cannot start an event loop: \(error)")
        }
        daemon.loop.add(DaemonTimeout(handle: handle))
        let thread = Thread { [loop = daemon.loop] in loop.run() }
        thread.name = "event-loop-\(index)"
        thread.start()
        return daemon
    }

    /// The bound port (the real one when started on port 0), or 0 if MHD cannot tell.
    var port: Int { onLoop { [self] in Int(cmhd_daemon_port(handle)) } }

    /// Stops accepting; returns the listening socket, which the caller must close only after
    /// `stop()` (MHD may still look at it until then).
    func quiesce() -> Int32? {
        let fd = onLoop { [self] in MHD_quiesce_daemon(handle) }
        return fd >= 0 ? fd : nil
    }

    /// Answers the work the loop's attachments hold (database reads), so that no connection
    /// stays suspended; their answers then go out while the loop keeps running.
    func closeAttachments() {
        onLoop { [loop] in loop.closeAttachments() }
    }

    /// Stops the loop, then closes all of this daemon's connections. No connection may be
    /// suspended (MHD's rule): the handler threads and the loop's reads are answered first.
    func stop() {
        loop.stop()
        loop.waitUntilStopped()
        MHD_stop_daemon(handle)
    }

    /// Runs `body` on the loop's thread: MHD's daemon calls are not safe beside a running
    /// `MHD_run`. Runs it here when the loop is no longer running.
    private func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        loop.runAndWait(body) ?? body()
    }
}

/// Calls `MHD_run` when libmicrohttpd's next deadline (a connection timeout, or work already
/// queued) is due, even if its descriptor stays quiet.
private final class DaemonTimeout: LoopTicker {
    private let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    var nextDeadline: ContinuousClock.Instant? {
        let milliseconds = cmhd_daemon_timeout_ms(handle)
        guard milliseconds >= 0 else { return nil }
        return ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
    }

    func tick() { DaemonRun.run(handle) }
}
