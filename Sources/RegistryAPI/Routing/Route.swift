import HTTPServer
import Registry

/// One endpoint, declared once: method, path template, what the caller's token must allow
/// (nil: no token), where its work runs, and its operation.
struct Route: Sendable {
    /// An answer computed from memory alone (constants, embedded files, metrics), or a handler
    /// that blocks throughout; both are plain functions.
    typealias Handler = @Sendable (Call) throws(RegistryError) -> HTTPResponse
    /// Reads top to bottom: parse → authorise → read → decide → render, awaiting where it
    /// waits (`Call.read`, `Call.work`, `Call.wait`).
    typealias Operation = @Sendable (Call) async throws(RegistryError) -> HTTPResponse

    /// Where a route's work runs, as the route declares it.
    enum Placement: Sendable, Equatable {
        /// Answered from memory on the event loop; never waits.
        case memory
        /// On the event loop, awaiting the reads the loop drives; blocking or heavy parts
        /// await a handler thread (and a heavy-work permit) themselves.
        case loop
        /// All of it on a handler thread (it blocks throughout).
        case thread
    }

    let method: String
    let template: PathTemplate
    /// What the token must allow; nil for a route that needs no token.
    let permission: Permission?
    let placement: Placement
    let operation: Operation

    var requiresToken: Bool { permission != nil }

    /// `METHOD /template`, the route's key in the route table.
    var key: String { "\(method) \(template.text)" }

    /// A route whose operation awaits what it needs on the event loop.
    init(_ method: String, _ template: String, needs permission: Permission?, _ operation: @escaping Operation) {
        self.init(method, template, permission, .loop, operation)
    }

    /// A route answered from memory alone, on the event loop.
    static func memory(_ method: String, _ template: String, needs permission: Permission?, _ handler: @escaping Handler) -> Route {
        Route(method, template, permission, .memory) { call throws(RegistryError) in try handler(call) }
    }

    /// A route whose handler blocks throughout: on a handler thread.
    static func thread(_ method: String, _ template: String, needs permission: Permission?, _ handler: @escaping Handler) -> Route {
        Route(method, template, permission, .thread) { call throws(RegistryError) in try await call.work { () throws(RegistryError) in try handler(call) } }
    }

    private init(_ method: String, _ template: String, _ permission: Permission?, _ placement: Placement, _ operation: @escaping Operation) {
        self.method = method
        self.template = PathTemplate(template)
        self.permission = permission
        self.placement = placement
        self.operation = operation
    }
}

extension Permission {
    /// What a route declares it needs, with the words its 403 uses (`.read("listing versions")`).
    static func read(_ action: String) -> Permission { Permission(.read, action) }
    static func publish(_ action: String) -> Permission { Permission(.publish, action) }
    static func admin(_ action: String) -> Permission { Permission(.admin, action) }
}
