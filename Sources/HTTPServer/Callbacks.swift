import CMicroHTTPD
import EventLoop
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
    /// At the end, the request's task starts right here (`ServerContext.respond`): an answer
    /// that needed no waiting goes out at once; otherwise the connection is suspended and the
    /// task's answer resumes it, so the event loop itself never waits.
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
            context.suspended.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(pending)) }
            return ResponseWriter.queue(response, on: connection, closeConnection: closeConnection)
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
        request.services = RequestServices(seat: connectionState?.seat ?? context.seat(of: connection), resources: context)
        let pending = PendingAnswer()
        let respond = context.respond
        Task.immediate(executorPreference: EventLoop.current) { [request] in pending.finish(await respond(request)) }
        guard let response = pending.answerOrSuspend({ SuspendedConnection(suspending: connection) }) else {
            state.pending = pending
            context.suspended.withLock { $0[ObjectIdentifier(pending)] = pending }
            return .YES
        }
        return ResponseWriter.queue(response, on: connection, closeConnection: closeConnection)
    }

    /// Releases the per-request state; called for every request the access handler has seen,
    /// whether it completed, failed or was cut off by a shutdown.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
        guard let cls, let conCls, let state = conCls.pointee, state != cmhd_query_refused() else {
            return
        }
        let context = ServerContext.from(cls)
        let request = Unmanaged<RequestState>.fromOpaque(state)
        if let pending = request.takeUnretainedValue().pending {
            context.suspended.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(pending)) }
        }
        request.release()
        conCls.pointee = nil
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
