import HTTPServer
import RegistryAPI

extension RegistryAPI {
    /// The answer an event loop gives at once, or nil when the request was left as work for a
    /// handler thread (which is dropped here, unrun: deciding has no effect on the store).
    public func answerFromMemory(_ request: HTTPRequest) -> HTTPResponse? {
        guard case .respond(let response) = decide(request) else { return nil }
        return response
    }
}
