import HTTPServer
import Registry

/// Everything a handler needs for one request: the request, its decoded query, the caller's
/// account (for routes that need a token), and the store. Accessors throw 400s naming the
/// field, so handlers read in the order their checks run.
struct Call: Sendable {
    let request: HTTPRequest
    let rawParameters: [String: String]
    let query: QueryFields
    /// The caller's token; nil only on routes that need no token.
    let token: TokenGrant?
    /// What this route needs from the token, checked with the application.
    let permission: Permission
    let store: Storage
    /// Unix seconds now; injected so previews are exact in tests.
    let clock: @Sendable () -> Double
    let notes: CallNotes
    let metrics: Metrics
    let caches: Caches
    /// Compatibility outlines, the heavy-work gate and the comparison limit.
    let reviews: Reviews
    /// Bounds how many long list pages are read and written at once.
    let longPages: HeavyWorkGate

    /// The authenticated account; nil only on routes that need no token.
    var accountID: Int64? { token?.accountID }

    /// Who makes a change through this call, for its audit event.
    var actor: AuditActor {
        AuditActor(kind: .token, tokenID: token?.id, tokenName: token?.name ?? "", requestID: notes.requestID)
    }
    /// Where requests waiting for changes park.
    let waitingRoom: WaitingRoom

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

    /// The `{version}` path parameter.
    func pathVersion() throws(RegistryError) -> Int32 {
        try VersionNumber.parse(rawParameters["version"] ?? "")
    }

    /// The request body as a JSON object.
    func body() throws(RegistryError) -> BodyFields {
        try BodyFields(body: request.body)
    }

    /// The application `code` names, checked against the caller's token: 404 when unknown, 403
    /// when it belongs to another account, when the token is limited to other applications, or
    /// when its scope is below what the route needs. From the lookup cache, else read without a
    /// thread waiting, going on with `next` when it arrives.
    func withApplication(code: String, _ next: @escaping @Sendable (Application) throws(RegistryError) -> Step)
        throws(RegistryError) -> Step
    {
        let cached = try store.cachedApplication(code: code).map { application throws(RegistryError) in
            try checked(application, code: code)
        }
        return try Step.after(
            cached,
            load: { [self] done in
                store.loadApplication(code: code) { loaded in
                    done(loaded.flatMap { application in Result { () throws(RegistryError) in try checked(application, code: code) } })
                }
            },
            then: next)
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
            if let refusal = permission.refusal(for: token) { throw refusal }
        }
        notes.application = application.code
        return application
    }
}
