import HTTPServer
import RegistryAPI
import Synchronization

extension RegistryAPI {
    /// The answer, given right here without a server: every read of the store completes on
    /// this thread (there is no event loop), and work meant for a handler thread runs here too.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard let response = answerWithoutWaiting(request) else {
            preconditionFailure("a request without a server waited: \(request.method) \(request.path)")
        }
        return response
    }

    /// The answer memory alone gives, as an event loop would send it inside its callback; nil
    /// when the request needs the store or a handler thread. Neither is started: the request
    /// is refused as if the server were stopping, so nothing is read or written.
    public func answerFromMemory(_ request: HTTPRequest) -> HTTPResponse? {
        var request = request
        request.services = RequestServices(seat: nil, resources: NoResources())
        let response = answerWithoutWaiting(request)
        guard let response else { return nil }
        let refused = response.status == 503 && String(decoding: response.body, as: UTF8.self).contains("the server is shutting down")
        return refused ? nil : response
    }

    private func answerWithoutWaiting(_ request: HTTPRequest) -> HTTPResponse? {
        let answer = Mutex<HTTPResponse?>(nil)
        Task.immediate { [request] in
            let response = await self.respond(request)
            answer.withLock { $0 = response }
        }
        return answer.withLock { $0 }
    }
}

/// A server that lends nothing: no handler thread, no read, no waiting.
private struct NoResources: ServerResources {
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool { false }
    var takesLoopWork: Bool { false }
    var roomForWaiting: WaitingRoom? { nil }
}
