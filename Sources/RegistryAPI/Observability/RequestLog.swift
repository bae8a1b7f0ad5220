import HTTPServer
import Registry

/// The request id, the metrics sample and the log line of every request, in one place that
/// wraps routing like a middleware: it sees the request once as it arrives and its response
/// once as it leaves, whether that came from the event loop (at once or after a read), a
/// handler thread or a wait that ended. Every response gets `X-Request-Id` and `X-Content-Type-Options: nosniff` here.
struct RequestLog: Sendable {
    let logger: Logger
    let metrics: Metrics

    /// Runs `next` (route, authenticate, decide) with the request's notes, then finishes
    /// whatever it decided; `next` names the matched route template for metrics.
    func around(_ request: HTTPRequest, _ next: (CallNotes) -> (route: String, decision: Decision)) -> Decision {
        let started = WallClock.now()
        let notes = CallNotes(requestID: RequestID.accept(request.header("x-request-id")))
        let (route, decision) = next(notes)
        // An answer at once (a cached GET) is finished here, without a closure to allocate.
        if case .respond(let response) = decision {
            return .respond(self.finish(response, request: request, route: route, notes: notes, started: started))
        }
        let finish: @Sendable (HTTPResponse) -> HTTPResponse = { response in
            self.finish(response, request: request, route: route, notes: notes, started: started)
        }
        return Self.finishing(decision, with: finish)
    }

    /// Every way a decision can end passes through `finish` exactly once.
    private static func finishing(_ decision: Decision, with finish: @escaping @Sendable (HTTPResponse) -> HTTPResponse)
        -> Decision
    {
        switch decision {
        case .respond(let response):
            return .respond(finish(response))
        case .work(let work):
            return .work { finishing(work(), with: finish) }
        case .later(let start):
            return .later { completion in start { next in completion(finishing(next, with: finish)) } }
        case .wait(let waiting):
            // A parked request is logged when it is finally answered.
            return .wait(
                WaitRequest(ticket: waiting.ticket, deadline: waiting.deadline) { reason in
                    finishing(waiting.then(reason), with: finish)
                })
        }
    }

    /// Logs the request's only line: a server-side failure (5xx) as `request failed` at level
    /// error, with the code, message and cause of the error the error → response map noted, so
    /// the failure is logged once and with its request id; anything else as `request` at info.
    private func finish(_ answered: HTTPResponse, request: HTTPRequest, route: String, notes: CallNotes, started: Double)
        -> HTTPResponse
    {
        var response = answered
        let requestID = notes.requestID
        response.headers.append((name: "X-Request-Id", value: requestID))
        response.headers.append(Self.noSniff)
        let seconds = WallClock.now() - started
        metrics.recordRequest(route: route, method: request.method, status: response.status, seconds: seconds)
        let failed = response.status >= 500
        let level: Logger.Level = failed ? .error : .info
        if logger.logs(level) {
            var fields: JSONObject = [
                "request_id": .string(requestID), "method": .string(ClientText.shown(request.method)), "route": .string(route),
                "status": .number(String(response.status)), "duration_ms": .number(String((seconds * 1_000_000).rounded() / 1000)),
                "bytes": .number(String(response.body.count)),
            ]
            if let application = notes.application { fields["application"] = .string(application) }
            if failed, let failure = notes.failure { fields.members.append(contentsOf: failure.logFields.members) }
            logger.log(level, failed ? "request failed" : "request", fields)
        }
        return response
    }

    /// What the HTTP layer refused before any routing, with a fresh request id.
    func rejected(_ refusal: HTTPResponse) -> HTTPResponse {
        let requestID = RequestID.generate()
        var response = refusal
        response.headers.append((name: "X-Request-Id", value: requestID))
        response.headers.append(Self.noSniff)
        metrics.recordRequest(route: "rejected", method: "-", status: response.status, seconds: 0)
        logger.log(.info, "request rejected", [
            "request_id": .string(requestID), "route": "rejected", "status": .number(String(response.status)),
            "bytes": .number(String(response.body.count)),
        ])
        return response
    }

    /// Browsers must take the declared `Content-Type` as it is: a JSON body echoing client text
    /// must never be sniffed into HTML or script.
    static let noSniff = (name: "X-Content-Type-Options", value: "nosniff")
}
