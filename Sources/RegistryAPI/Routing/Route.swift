import HTTPServer
import Registry

/// One endpoint: method, path template, whether it needs an API token, and its handler.
struct Route: Sendable {
    typealias Handler = @Sendable (Call) throws(RegistryError) -> HTTPResponse

    let method: String
    let template: PathTemplate
    let requiresToken: Bool
    let handler: Handler

    init(_ method: String, _ template: String, requiresToken: Bool = true, handler: @escaping Handler) {
        self.method = method
        self.template = PathTemplate(template)
        self.requiresToken = requiresToken
        self.handler = handler
    }
}
