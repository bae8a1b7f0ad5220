import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C callbacks every daemon is started with. `cls` is always the `ServerContext`.
enum Callbacks {
    /// Called for each request: once with the headers, once per body chunk, once at the end,
    /// and once more after a handler thread resumed the connection. Answering only at the end
    /// keeps the connection alive; answering earlier makes MHD close it.
    ///
    /// At the end, the application decides once (`ServerContext.decide`): an answer goes out
    /// at once; work suspends the connection and goes to a handler thread, so the event loop
    /// never waits on I/O.
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
            context.receiveDeadlines.headReceived(connection)
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
            // Called again after a handler thread resumed the connection: send its answer.
            guard let response = state.pending?.take() else { return .YES }
            state.pending = nil
            return ResponseWriter.queue(
                response, on: connection, closeConnection: closeConnection, handlerThreads: context.handlerThreads)
        }
        state.answered = true
        context.receiveDeadlines.handling(connection)
        let request: HTTPRequest
        switch state.finish() {
        case .handle(let complete): request = complete
        case .reject(let rejection):
            return ResponseWriter.queue(context.rejection(rejection), on: connection, closeConnection: closeConnection)
        }
        switch context.decide(request) {
        case .respond(let response):
            return ResponseWriter.queue(
                response, on: connection, closeConnection: closeConnection, handlerThreads: context.handlerThreads)
        case .work(let work):
            return handOff(work, on: connection, state: state, context: context)
        }
    }

    /// Suspends the connection and queues the work for a handler thread, which sets the
    /// answer and resumes the connection; MHD then calls `access` again to send it. (Resuming
    /// before this call returns is allowed: MHD only looks at the connection again after it.)
    private static func handOff(
        _ work: @escaping @Sendable () -> HandlerAnswer, on connection: OpaquePointer, state: RequestState,
        context: ServerContext
    ) -> MHD_Result {
        let pending = PendingAnswer()
        let accepted = context.handlerThreads.submit {
            let suspended = SuspendedConnection(suspending: connection)
            return { deliver(work(), pending: pending, suspended: suspended, context: context) }
        }
        guard accepted else {
            return ResponseWriter.queue(context.rejection(.shuttingDown), on: connection, closeConnection: true)
        }
        state.pending = pending
        return .YES
    }

    /// Sends a handler's response, or parks the request in the waiting room with its connection
    /// still suspended and no thread; when woken it runs on a handler thread again.
    private static func deliver(
        _ answer: HandlerAnswer, pending: PendingAnswer, suspended: SuspendedConnection, context: ServerContext
    ) {
        switch answer {
        case .respond(let response):
            pending.set(response)
            suspended.resume()
        case .wait(let waiting):
            context.waitingRoom.park(waiting) { reason in
                let accepted = context.handlerThreads.submit {
                    {
                        var next = waiting.then(reason)
                        // A stopping server answers; it never parks a request twice.
                        if reason == .answerNow, case .wait = next { next = .respond(context.rejection(.shuttingDown)) }
                        deliver(next, pending: pending, suspended: suspended, context: context)
                    }
                }
                if !accepted {
                    pending.set(context.rejection(.shuttingDown))
                    suspended.resume()
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
        if let connection { context.receiveDeadlines.awaitingNext(connection) }
    }

    /// Tracks connections for the receive deadline.
    static let connection: MHD_NotifyConnectionCallback = { cls, connection, _, event in
        guard let cls, let connection else { return }
        let deadlines = ServerContext.from(cls).receiveDeadlines
        switch event {
        case .CONNECTION_NOTIFY_STARTED: deadlines.opened(connection, socket: cmhd_connection_fd(connection))
        case .CONNECTION_NOTIFY_CLOSED: deadlines.closed(connection)
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
