import EventLoop
import Synchronization

/// Everything the C callbacks need, shared by all event loops and handler threads. MHD receives it as an
/// unretained pointer in `cls`; `HTTPServer` owns it and outlives every daemon.
final class ServerContext: Sendable {
    /// Called once per request, as a task started on the event loop; it must never block the
    /// loop: work that blocks awaits `handlerThreads` (`RequestServices.work`).
    let respond: Responder
    /// Where requests waiting for an event are parked without a thread.
    let waitingRoom: WaitingRoom
    /// How many parked requests one event loop's connections may hold, and one client
    /// address's connections on one loop.
    let waitingLimitPerEventLoop: Int
    let waitingLimitPerAddressPerEventLoop: Int
    let rejection: @Sendable (HTTPRejection) -> HTTPResponse
    let maxBodyBytes: Int
    let requestLimits: RequestLimits
    private let errorLog: (@Sendable (String) -> Void)?

    /// Requests between their first access-handler call and MHD's completion notice.
    let inFlight = Atomic<Int>(0)
    /// The answers that suspended connections wait for, so that a stopping server can answer
    /// the tasks that never end in time: libmicrohttpd must not stop with a connection
    /// suspended.
    let suspended = Mutex<[ObjectIdentifier: PendingAnswer]>([:])
    /// Set by quiesce: answers then carry `Connection: close` so keep-alive clients move on.
    let quiescing = Atomic<Bool>(false)
    /// Slow senders are cut off after the connection timeout.
    let receiveDeadlines: ReceiveDeadlines
    /// Set when a stopping server answers the reads its loops hold: from then on a request
    /// that would start one gets the shutting-down rejection instead.
    let loopWorkClosed = Atomic<Bool>(false)
    /// Set when the server stops, ending the deadline sweeper.
    let stopped = Atomic<Bool>(false)
    let handlerThreads: HandlerThreads
    /// The most recent MHD diagnostic, quoted when a daemon fails to start.
    let lastLogMessage = Mutex<String?>(nil)

    init(
        configuration: HTTPServerConfiguration,
        respond: @escaping Responder,
        waitingRoom: WaitingRoom,
        rejection: @escaping @Sendable (HTTPRejection) -> HTTPResponse
    ) {
        self.respond = respond
        self.waitingRoom = waitingRoom
        self.waitingLimitPerEventLoop = configuration.waitingLimitPerEventLoop
        self.waitingLimitPerAddressPerEventLoop = configuration.waitingLimitPerAddressPerEventLoop
        self.handlerThreads = HandlerThreads(count: configuration.workers)
        self.rejection = rejection
        self.maxBodyBytes = configuration.maxBodyBytes
        self.requestLimits = RequestLimits(
            maxMethodBytes: configuration.maxMethodBytes, maxQueryParameters: configuration.maxQueryParameters)
        self.errorLog = configuration.errorLog
        self.receiveDeadlines = ReceiveDeadlines(
            limitSeconds: configuration.connectionTimeoutSeconds, headLimitSeconds: configuration.requestHeadTimeoutSeconds)
    }

    /// Where `connection`'s requests sit for the waiting room; only on its event loop.
    func seat(of connection: OpaquePointer) -> WaitingRoom.Seat? {
        guard let loop = EventLoop.current else { return nil }
        return WaitingRoom.Seat(
            eventLoop: ObjectIdentifier(loop), address: ClientAddress(of: connection), loopLimit: waitingLimitPerEventLoop,
            addressLoopLimit: waitingLimitPerAddressPerEventLoop)
    }

    func log(_ message: String) {
        lastLogMessage.withLock { $0 = message }
        errorLog?(message)
    }

    var opaque: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    static func from(_ pointer: UnsafeMutableRawPointer) -> ServerContext {
        Unmanaged<ServerContext>.fromOpaque(pointer).takeUnretainedValue()
    }
}
