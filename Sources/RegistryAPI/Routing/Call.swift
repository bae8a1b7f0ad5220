import HTTPServer
import Registry

/// Everything a handler needs for one request: the request, its decoded query, the caller's
/// account (for routes that need a token), and the store. Accessors throw 400s naming the
/// field, so handlers read as the spec's check order.
struct Call: Sendable {
    let request: HTTPRequest
    let rawParameters: [String: String]
    let query: QueryFields
    /// The authenticated account; nil only on routes that need no token.
    let accountID: Int64?
    let store: Storage
    /// Unix seconds now; injected so previews are exact in tests.
    let clock: @Sendable () -> Double
    let notes: CallNotes
    let metrics: Metrics
    let caches: Caches
    /// Where requests waiting for changes park.
    let waitingRoom: WaitingRoom

    /// The `{attributesType}` path parameter, percent-decoded and checked.
    func pathAttributesType() throws(RegistryError) -> String {
        guard let raw = rawParameters["attributesType"], let decoded = PercentDecoding.decode(raw) else {
            throw .invalidArgument("attributesType: invalid percent-encoding or not UTF-8 in the path")
        }
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

    /// The application `code` names, checked against the caller's account: 404 when unknown,
    /// 403 when it belongs to another account.
    func application(code: String) throws(RegistryError) -> Application {
        guard let application = try store.application(code: code) else {
            throw .notFound("application \(JSONWriter.string(.string(code))) not found")
        }
        guard application.accountID == accountID else {
            throw .permissionDenied("application \(JSONWriter.string(.string(code))) does not belong to this API token's account")
        }
        notes.application = application.code
        return application
    }
}
