import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C callbacks every daemon is started with. `cls` is always the `ServerContext`.
enum Callbacks {
    /// Called for each request: once with the headers, once per body chunk, once at the end,
    /// and once more after an answer resumed the connection. Answering only at the end
    /// keeps the connection alive; answering earlier makes MHD close it.
    ///
    /// At the end, the application decides once (`ServerContext.decide`): an answer goes out
    /// at once; anything else suspends the connection, and either goes to a handler thread,
    /// waits for I/O the loop drives or parks until an event, so the event loop itself never
    /// waits.
    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
        guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
        let context = ServerContext.from(cls)

        let queryRefused = conCls.pointee == cmhd_query_refused()
        guard let existing = conCls.pointee, !queryRefused else {
            let (head, contentLength) = RequestHead.read(
                connection: connection, url: url, method: method, version: version, limits: context.requestLimits,
                queryRefused: queryRefused)
            let state = RequestState(head: head, declaredContentLength: contentLength, maxBodyBytes: context.maxBodyBytes)
            conCls.pointee = Unmanaged.passRetained(state).toOpaque()
            context.inFlight.add(1, ordering: .relaxed)
            ConnectionState.of(connection)?.clock.headReceived()
            if let refused = state.refusedHead {
                // Ambiguous framing: answer before reading any body, then close.
                state.answered = true
                return ResponseWriter.queue(
                    context.rejection(.invalidRequestTarget(refused.reason)), on: connection, closeConnection: true)
            }
            if state.declaredBodyTooLarge {
                // Refuse before reading the body; MHD then closes the connection.
                state.answered = true
                return ResponseWriter.queue(
                    context.rejection(.bodyTooLarge(limit: context.maxBodyBytes)), on: connection, closeConnection: true)
            }
            return .YES
        }

        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        if uploadDataSize.pointee > 0 {
            if !state.answered, let uploadData {
                state.appendBody(UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee))
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        let closeConnection = context.quiescing.load(ordering: .relaxed)
        guard !state.answered else {
            // Called again after an answer resumed the connection: send it.
            guard let pending = state.pending, let response = pending.take() else { return .YES }
            state.pending = nil
            return ResponseWriter.queue(
                response, on: connection, closeConnection: closeConnection || pending.closesConnection,
                handlerThreads: context.handlerThreads)
        }
        state.answered = true
        let connectionState = ConnectionState.of(connection)
        connectionState?.clock.handling()
        var request: HTTPRequest
        switch state.finish() {
        case .handle(let complete): request = complete
        case .reject(let rejection):
            return ResponseWriter.queue(context.rejection(rejection), on: connection, closeConnection: closeConnection)
        }
        request.waitingSeat = connectionState?.seat ?? context.seat(of: connection)
        switch context.decide(request) {
        case .respond(let response):
            return ResponseWriter.queue(
                response, on: connection, closeConnection: closeConnection, handlerThreads: context.handlerThreads)
        case let decision:
            // Suspended before anything can answer: an answer (from any thread) then resumes
            // the connection, and MHD calls `access` again to send it.
            let pending = PendingAnswer()
            state.pending = pending
            proceed(
                decision, pending: pending, suspended: SuspendedConnection(suspending: connection, seat: request.waitingSeat),
                context: context)
            return .YES
        }
    }

    /// Carries a suspended request through what was decided for it: an answer resumes the
    /// connection; work goes to a handler thread; I/O on the loop continues here when it
    /// completes; a wait parks it in the waiting room. A stopping server refuses new work with
    /// the shutting-down rejection, and once it has woken a parked request to answer now
    /// (`answeringNow`), that request never parks again.
    private static func proceed(
        _ decision: Decision, pending: PendingAnswer, suspended: SuspendedConnection, context: ServerContext,
        answeringNow: Bool = false
    ) {
        let refuse = { proceed(.respond(context.rejection(.shuttingDown)), pending: pending, suspended: suspended, context: context) }
        switch decision {
        case .respond(let response):
            pending.set(response)
            suspended.resume()
        case .work(let work):
            let accepted = context.handlerThreads.submit {
                {
                    let next = work()
                    // An answer is set and resumed from any thread; anything else continues on the loop.
                    if case .respond = next { return proceed(next, pending: pending, suspended: suspended, context: context) }
                    suspended.execute {
                        proceed(next, pending: pending, suspended: suspended, context: context, answeringNow: answeringNow)
                    }
                }
            }
            if !accepted { refuse() }
        case .later(let start):
            guard !context.loopWorkClosed.load(ordering: .relaxed) else { return refuse() }
            start { next in proceed(next, pending: pending, suspended: suspended, context: context, answeringNow: answeringNow) }
        case .wait(let waiting):
            guard !answeringNow else { return refuse() }
            // Parked with its connection still suspended and no thread; the wake continues on the
            // connection's event loop. Refused for want of a seat, it gives its connection back.
            context.waitingRoom.park(waiting, seat: suspended.seat) { reason in
                if reason == .full { pending.closeConnectionAfterAnswer() }
                suspended.execute {
                    proceed(
                        waiting.then(reason), pending: pending, suspended: suspended, context: context,
                        answeringNow: reason == .answerNow)
                }
            }
        }
    }

    /// Releases the per-request state; called for every request the access handler has seen,
    /// whether it completed, failed or was cut off by a shutdown.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
        guard let cls, let conCls, let state = conCls.pointee, state != cmhd_query_refused() else {
            return
        }
        Unmanaged<RequestState>.fromOpaque(state).release()
        conCls.pointee = nil
        let context = ServerContext.from(cls)
        context.inFlight.subtract(1, ordering: .relaxed)
        if let connection { ConnectionState.of(connection)?.clock.awaitingNext() }
    }

    /// Tracks connections for the receive deadline, keeps each one's `ConnectionState` in its
    /// socket context (retained there until it closes), and counts closes for `DaemonRun`.
    static let connection: MHD_NotifyConnectionCallback = { cls, connection, socketContext, event in
        guard let cls, let connection else { return }
        let context = ServerContext.from(cls)
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            let clock = context.receiveDeadlines.opened(connection, socket: cmhd_connection_fd(connection))
            let state = ConnectionState(clock: clock, seat: context.seat(of: connection))
            socketContext?.pointee = Unmanaged.passRetained(state).toOpaque()
        case .CONNECTION_NOTIFY_CLOSED:
            context.receiveDeadlines.closed(connection)
            if let socketContext, let state = socketContext.pointee {
                socketContext.pointee = nil
                Unmanaged<ConnectionState>.fromOpaque(state).release()
            }
            DaemonRun.closedConnections.add(1, ordering: .relaxed)
        default: break
        }
    }

    /// Leaves the path and query arguments exactly as sent: the API layer percent-decodes them
    /// itself and must be able to tell `%2F` from `/`.
    static let keepEscaped: CMHDUnescapeCallback = { _, _, text in
        guard let text else { return 0 }
        return strlen(text)
    }

    /// MHD's diagnostics (printf-style); kept so a failed start can say why, and passed on
    /// to `HTTPServerConfiguration.errorLog`.
    static let log: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        var message = string(fromNulTerminated: buffer)
        while message.last?.isNewline == true { message.removeLast() }
        ServerContext.from(cls).log(message)
    }
}
