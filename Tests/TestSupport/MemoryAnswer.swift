import HTTPServer
import RegistryAPI
import Synchronization

extension RegistryAPI {
    /// The answer the request's task gives without waiting, as an event loop would send it
    /// inside its callback; nil when it had to wait (for the store or a handler thread). What
    /// follows the first wait never runs: handler-thread work is never started, and the task
    /// is not resumed after a read.
    public func answerFromMemory(_ request: HTTPRequest) -> HTTPResponse? {
        var request = request
        request.services = RequestServices(seat: nil, waitingRoom: nil, submit: { _ in true }, loopTakesWork: { true })
        let answer = Mutex<HTTPResponse?>(nil)
        Task.immediate(executorPreference: NeverResuming.executor) { [request] in
            let response = await self.respond(request)
            answer.withLock { $0 = response }
        }
        return answer.withLock { $0 }
    }
}

/// An executor that drops every job: a task preferring it stops at its first wait.
private final class NeverResuming: TaskExecutor {
    static let executor = NeverResuming()
    func enqueue(_ job: consuming ExecutorJob) {}
}
