import Foundation

/// Limits are explicit so that a hostile or broken client costs a bounded amount of memory,
/// time and connections; the defaults are meant for production.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal; names are not resolved, so what is bound is never ambiguous.
    public var host: String
    /// 0 picks a free port (tests); read the result from `HTTPServer.port`.
    public var port: Int
    /// Threads running handlers. Handlers block (on the database), so this is how many
    /// requests can be handled at the same time.
    public var workers: Int
    /// Single-threaded event loops (MHD daemons) sharing the port; nil means one per core,
    /// at most `workers`. They only move bytes, so more than the cores only adds switching.
    public var eventLoops: Int?
    /// Larger bodies are refused with `HTTPRejection.bodyTooLarge` and never held in memory.
    public var maxBodyBytes: Int
    /// Memory per connection for the request line, headers and read buffer; requests whose
    /// headers do not fit are answered by libmicrohttpd itself with a 4xx.
    public var connectionMemoryLimitBytes: Int
    /// Idle connections are closed after this many seconds, and so are connections whose
    /// request takes longer than this to arrive (slow senders).
    /// A request parked in the waiting room (long polling) is not idle: its connection is
    /// suspended, which libmicrohttpd never times out, so a wait may be longer than this.
    public var connectionTimeoutSeconds: Int
    /// Per process; split evenly across the event loops (at least one each).
    public var connectionLimit: Int
    /// Connections one client address may hold open at once, so one address cannot take every
    /// slot; 0 means no per-address limit. Split across the event loops like `connectionLimit`.
    /// Past it, libmicrohttpd accepts and closes at once: the client learns, others are served.
    public var connectionLimitPerAddress: Int
    /// A new connection that has not sent a complete request head within this many seconds
    /// is closed (at most `connectionTimeoutSeconds`).
    public var requestHeadTimeoutSeconds: Int
    /// Longer methods are refused with `HTTPRejection.invalidRequestTarget` before routing.
    public var maxMethodBytes: Int
    /// More query parameters are refused with `HTTPRejection.invalidRequestTarget`.
    public var maxQueryParameters: Int
    /// Receives libmicrohttpd's own diagnostics; nil discards them.
    public var errorLog: (@Sendable (String) -> Void)?

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        workers: Int = 8,
        eventLoops: Int? = nil,
        maxBodyBytes: Int = 1_048_576,
        connectionMemoryLimitBytes: Int = 32 * 1024,
        connectionTimeoutSeconds: Int = 30,
        connectionLimit: Int = 1000,
        connectionLimitPerAddress: Int = 0,
        requestHeadTimeoutSeconds: Int = 10,
        maxMethodBytes: Int = 32,
        maxQueryParameters: Int = 100,
        errorLog: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.workers = workers
        self.eventLoops = eventLoops
        self.maxBodyBytes = maxBodyBytes
        self.connectionMemoryLimitBytes = connectionMemoryLimitBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.connectionLimitPerAddress = connectionLimitPerAddress
        self.requestHeadTimeoutSeconds = requestHeadTimeoutSeconds
        self.maxMethodBytes = maxMethodBytes
        self.maxQueryParameters = maxQueryParameters
        self.errorLog = errorLog
    }

    /// Checked at start so that a bad value fails loudly instead of being clamped silently.
    func validate() throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw HTTPServerError("port \(port) is not in 0...65535") }
        guard workers >= 1 else { throw HTTPServerError("workers must be at least 1, got \(workers)") }
        if let eventLoops, eventLoops < 1 { throw HTTPServerError("eventLoops must be at least 1, got \(eventLoops)") }
        guard maxBodyBytes >= 0 else { throw HTTPServerError("maxBodyBytes must not be negative") }
        guard connectionMemoryLimitBytes >= 1024 else {
            throw HTTPServerError("connectionMemoryLimitBytes must be at least 1024, got \(connectionMemoryLimitBytes)")
        }
        guard (0...Int(UInt32.max)).contains(connectionTimeoutSeconds) else {
            throw HTTPServerError("connectionTimeoutSeconds \(connectionTimeoutSeconds) is out of range")
        }
        guard (1...Int(UInt32.max)).contains(connectionLimit) else {
            throw HTTPServerError("connectionLimit must be at least 1, got \(connectionLimit)")
        }
        guard connectionLimitPerAddress >= 0 else { throw HTTPServerError("connectionLimitPerAddress must not be negative") }
        guard requestHeadTimeoutSeconds >= 1 else {
            throw HTTPServerError("requestHeadTimeoutSeconds must be at least 1, got \(requestHeadTimeoutSeconds)")
        }
        guard maxMethodBytes >= 3, maxQueryParameters >= 0 else {
            throw HTTPServerError("maxMethodBytes must be at least 3 and maxQueryParameters not negative")
        }
    }

    var eventLoopCount: Int { eventLoops ?? max(1, min(workers, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Each daemon enforces its own limit, so the process-wide limit is divided among them.
    var connectionLimitPerEventLoop: Int { max(1, connectionLimit / eventLoopCount) }

    /// 0 (no limit) stays 0; otherwise at least one per event loop.
    var connectionLimitPerAddressPerEventLoop: Int {
        connectionLimitPerAddress == 0 ? 0 : max(1, connectionLimitPerAddress / eventLoopCount)
    }

    /// The most of `connections` that parked requests may hold: half. The rest is kept for
    /// short requests and the probes. libmicrohttpd at its connection limit stops accepting
    /// rather than refusing, so without this, waiters holding every slot would leave each
    /// other client's connections unaccepted until the waits end, their own 503 never sent.
    public static func waitingShare(of connections: Int) -> Int { connections / 2 }

    /// Checked at start: the room may not promise waiters more than their share of the
    /// connections, in all and per client address.
    func validate(_ room: WaitingRoom) throws(HTTPServerError) {
        guard room.capacity <= Self.waitingShare(of: connectionLimit) else {
            throw HTTPServerError(
                "a waiting room of \(room.capacity) is more than half of connectionLimit \(connectionLimit)")
        }
        guard connectionLimitPerAddress == 0 || room.capacityPerAddress == .max
            || room.capacityPerAddress <= Self.waitingShare(of: connectionLimitPerAddress)
        else {
            throw HTTPServerError(
                "a waiting room of \(room.capacityPerAddress) per address is more than half of connectionLimitPerAddress \(connectionLimitPerAddress)")
        }
    }

    /// Each daemon enforces its own connection limits, so parked requests are bounded per event
    /// loop as well: at most their share of that loop's connections, and of one address's there.
    var waitingLimitPerEventLoop: Int { Self.waitingShare(of: connectionLimitPerEventLoop) }

    /// No bound of its own when addresses have no connection limit.
    var waitingLimitPerAddressPerEventLoop: Int {
        connectionLimitPerAddress == 0 ? .max : Self.waitingShare(of: connectionLimitPerAddressPerEventLoop)
    }
}
