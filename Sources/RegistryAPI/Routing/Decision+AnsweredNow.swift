import HTTPServer
import Registry
import Synchronization

extension Decision {
    /// The response, following what was decided right here, for callers without an event loop
    /// and handler threads (`RegistryAPI.handle`, tests): work runs on this thread, a read must
    /// complete before it returns (no event loop runs here), and a parked request is woken with
    /// `.answerNow` at once.
    var answeredNow: HTTPResponse {
        switch self {
        case .respond(let response):
            return response
        case .work(let work):
            return work().answeredNow
        case .later(let start):
            let next = Mutex<Decision?>(nil)
            start { decided in next.withLock { $0 = decided } }
            guard let decided = next.withLock({ $0 }) else {
                return ErrorResponse.make(.internal("a read did not complete on a thread without an event loop"))
            }
            return decided.answeredNow
        case .wait(let waiting):
            return waiting.then(.answerNow).answeredNow
        }
    }
}
