import CMicroHTTPD

/// One libmicrohttpd daemon: one SO_REUSEPORT listening socket served by one thread, the
/// event loop of its connections. Several of them share a port, one per core; MHD's own
/// thread pool was measured to spread connections very unevenly.
///
/// `@unchecked Sendable`: the handle is only used by `HTTPServer` under its lock, or after
/// being taken out of it by the one `stop` call that shuts it down.
struct Daemon: @unchecked Sendable {
    private let handle: OpaquePointer

    static func start(
        address: SocketAddress,
        configuration: HTTPServerConfiguration,
        context: ServerContext
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
        return Daemon(handle: handle)
    }

    /// The bound port (the real one when started on port 0), or 0 if MHD cannot tell.
    var port: Int { Int(cmhd_daemon_port(handle)) }

    /// Stops accepting; returns the listening socket, which the caller must close only after
    /// `stop()` (MHD's thread may still look at it until then).
    func quiesce() -> Int32? {
        let fd = MHD_quiesce_daemon(handle)
        return fd >= 0 ? fd : nil
    }

    /// Closes all of this daemon's connections and joins its thread. No connection may be
    /// suspended (MHD's rule): the handler threads are drained first.
    func stop() {
        MHD_stop_daemon(handle)
    }
}
