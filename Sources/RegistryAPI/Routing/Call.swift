import HTTPServer
import Registry

/// Everything a handler needs for one request: the request, its decoded query, the caller's
/// account (for routes that need a token), and what every request shares (`Shared`: the
/// store, the caches, the gates). Accessors throw 400s naming the field, so handlers read in
/// the order their checks run.
@dynamicMemberLookup
struct Call: Sendable {
    let request: HTTPRequest
    let rawParameters: [String: String]
    let query: QueryFields
    /// The caller's token; nil only on routes that need no token.
    let token: TokenGrant?
    /// What this route needs from the token, checked with the application; nil on routes that
    /// need no token.
    let permission: Permission?
    let notes: CallNotes
    let shared: Shared

    /// What every request shares, read as the call's own (`call.store`, `call.caches`).
    subscript<T>(dynamicMember keyPath: KeyPath<Shared, T>) -> T { shared[keyPath: keyPath] }

    /// What every request of one API shares, made once with it: a call refers to it, so
    /// making a call copies one reference, not one per service.
    final class Shared: Sendable {
        let store: Storage
        /// Unix seconds now; injected so previews are exact in tests.
        let clock: @Sendable () -> Double
        let metrics: Metrics
        let caches: Caches
        /// Compatibility outlines, the heavy-work gate and the comparison limit.
        let reviews: Reviews
        /// Bounds how many long list pages are read and written at once.
        let longPages: HeavyWorkGate
        /// Reads of versions, counted in memory and flushed to the store.
        let usage: UsageLedger
        /// Where requests waiting for changes park.
        let waitingRoom: WaitingRoom
        /// Which webhook destinations the operator allows.
        let destinations: DestinationPolicy

        init(
            store: Storage, clock: @escaping @Sendable () -> Double, metrics: Metrics, caches: Caches, reviews: Reviews,
            longPages: HeavyWorkGate, usage: UsageLedger, waitingRoom: WaitingRoom, destinations: DestinationPolicy
        ) {
            self.store = store
            self.clock = clock
            self.metrics = metrics
            self.caches = caches
            self.reviews = reviews
            self.longPages = longPages
            self.usage = usage
            self.waitingRoom = waitingRoom
            self.destinations = destinations
        }
    }

    /// The authenticated account; nil only on routes that need no token.
    var accountID: Int64? { token?.accountID }

    /// Who makes a change through this call, for its audit event.
    var actor: AuditActor {
        AuditActor(kind: .token, tokenID: token?.id, tokenName: token?.name ?? "", requestID: notes.requestID)
    }
    /// The `{attributesType}` path parameter, percent-decoded and checked.
    ///
    /// A segment may start with `%2F`, which is dropped: a name never contains `/`, so the
    /// prefix is unambiguous, and it is the only way to name the types `.` and `..` in a URL,
    /// because browsers and most HTTP libraries resolve `.`/`..` segments, percent-encoded or
    /// not, before the request is sent (`%2F..` is not a dot-segment).
    func pathAttributesType() throws(RegistryError) -> String {
        guard let raw = rawParameters["attributesType"], var decoded = PercentDecoding.decode(raw) else {
            throw .invalidArgument("attributesType: invalid percent-encoding or not UTF-8 in the path")
        }
        if decoded.utf8.first == UInt8(ascii: "/") { decoded = String(decoded.utf8.dropFirst())! }
        try AttributesTypeName.validate(decoded)
        return decoded
    }

    /// Notes the version this request answers about, so that a successful answer is counted
    /// as a read of it (`UsageLedger.record`, called once per request by `RegistryAPI.respond`).
    /// Called where a handler resolves the version it answers about, warm or not.
    func noteRead(_ application: Application, _ attributesType: String, _ version: Int32) {
        notes.versionRead = VersionRead(applicationID: application.id, attributesType: attributesType, version: version)
    }

    /// The `{version}` path parameter.
    func pathVersion() throws(RegistryError) -> Int32 {
        try VersionNumber.parse(rawParameters["version"] ?? "")
    }

    /// Path parameters and `?application=`, checked in order (the type, the version, the
    /// application's code), before the application is looked up.
    func versionPath() throws(RegistryError) -> (code: String, attributesType: String, version: Int32) {
        let attributesType = try pathAttributesType()
        let version = try pathVersion()
        let code = try query.requiredString(.application)
        return (code, attributesType, version)
    }

    /// The type and `?application=`, checked before the application is looked up.
    func typePath() throws(RegistryError) -> (code: String, attributesType: String) {
        let attributesType = try pathAttributesType()
        return (try query.requiredString(.application), attributesType)
    }

    /// The request body as a JSON object.
    func body() throws(RegistryError) -> BodyFields {
        try BodyFields(body: request.body)
    }

    /// The application `code` names, checked against the caller's token: 404 when unknown, 403
    /// when it belongs to another account, when the token is limited to other applications, or
    /// when its scope is below what the route needs. From the lookup cache, else read on the
    /// loop.
    func application(code: String) async throws(RegistryError) -> Application {
        if let cached = shared.store.cachedApplication(code: code) { return try checked(cached, code: code) }
        return try checked(try await shared.store.loadApplication(code: code, for: request), code: code)
    }

    /// A call of the store that the event loop drives (one statement): the request waits for
    /// it holding no thread. A stopping server refuses new ones.
    func read<T: Sendable>(_ read: (any SchemaStore) async throws -> T) async throws(RegistryError) -> T {
        try await shared.store.read(for: request, read)
    }

    /// `body` on a handler thread: work that blocks on the store or takes much CPU. Without a
    /// server (tests, tools) it runs right here.
    func work<T: Sendable>(_ body: @escaping @Sendable () throws(RegistryError) -> T) async throws(RegistryError) -> T {
        guard let services = request.services else { return try body() }
        guard let result = await services.work({ Result { () throws(RegistryError) in try body() } }) else {
            throw APIRefusal.shuttingDown
        }
        return try result.get()
    }

    /// A heavy-work permit when `heavy` (nil when light), waited for holding no thread, or
    /// refused when the gate's queue is full; the caller releases it. For work that awaits
    /// between its CPU-heavy steps (a publish reviews inside its transaction), which then pass
    /// `permitHeld` to `compute`.
    func permit(heavy: Bool) async throws(RegistryError) -> HeavyWorkGate.Permit? {
        heavy ? try await shared.reviews.gate.permit() : nil
    }

    /// `body` right here when light (a small schema); on a handler thread when heavy, so that a
    /// large document is never parsed or walked on a loop, holding a heavy-work permit unless
    /// the caller holds one already (`permitHeld`).
    func compute<T: Sendable>(heavy: Bool, permitHeld: Bool = false, _ body: @escaping @Sendable () throws(RegistryError) -> T)
        async throws(RegistryError) -> T
    {
        guard heavy else { return try body() }
        let permit = try await permit(heavy: !permitHeld)
        defer { permit?.release() }
        return try await work(body)
    }

    /// Waits until the waiting room wakes `ticket`'s key or `deadline` passes, holding no
    /// thread. Without a server it answers now.
    func wait(_ ticket: WaitingRoom.Ticket, until deadline: ContinuousClock.Instant) async -> WakeReason {
        guard let services = request.services else { return .answerNow }
        return await services.wait(ticket, until: deadline)
    }

    private func checked(_ found: Application?, code: String) throws(RegistryError) -> Application {
        guard let application = found else {
            throw .notFound("application \(ClientText.quoted(code)) not found")
        }
        guard application.accountID == accountID else {
            throw .permissionDenied("application \(ClientText.quoted(code)) does not belong to this API token's account")
        }
        if let token {
            guard token.reaches(application) else {
                throw .permissionDenied("this token is limited to other applications than \(JSONWriter.string(.string(code)))")
            }
            if let refusal = permission?.refusal(for: token) { throw refusal }
        }
        notes.application = application.code
        return application
    }
}
