import Registry

/// How much the API may remember, from configuration.
public struct CacheSettings: Sendable {
    /// Bytes of rendered versions and forms; 0 disables.
    public var responseBytes: Int
    /// Seconds a token or application lookup may be served from memory; 0 disables. Token
    /// revocation and scope, application or expiry changes reach a replica within this bound
    /// even if their notification is lost.
    public var lookupSeconds: Double
    /// Estimated memory for validated schema documents, which publishing reuses; 0 disables.
    public var documentBytes: Int
    /// Names the build in every version and form `ETag` (see `EntityTag.derived`).
    public var entityTagSalt: String

    public init(responseBytes: Int = 0, lookupSeconds: Double = 0, documentBytes: Int = 8 << 20, entityTagSalt: String = "") {
        self.responseBytes = responseBytes
        self.lookupSeconds = lookupSeconds
        self.documentBytes = documentBytes
        self.entityTagSalt = entityTagSalt
    }
}

/// The API's caches together, so invalidation has one entry point.
final class Caches: Sendable {
    let responses: ResponseCache
    let tokens: ExpiringCache<DigestKey, TokenGrant>
    let applications: ExpiringCache<String, Application>
    /// Content-addressed, so no notification ever needs to touch it.
    let documents: SchemaDocumentCache
    let entityTagSalt: String

    init(_ settings: CacheSettings, clock: @escaping @Sendable () -> Double) {
        responses = ResponseCache(capacityBytes: settings.responseBytes)
        documents = SchemaDocumentCache(capacityBytes: settings.documentBytes)
        tokens = ExpiringCache(lifetime: settings.lookupSeconds, clock: clock)
        applications = ExpiringCache(lifetime: settings.lookupSeconds, clock: clock)
        entityTagSalt = settings.entityTagSalt
    }

    /// Applies one `registry_changes` notification (see migration 0003); unknown payloads
    /// flush everything, the safe reading of a message we do not understand.
    func apply(notification payload: String) {
        let parts = payload.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        switch parts.first {
        case "schema_deleted":
            let fields = parts.count == 2 ? parts[1].split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false) : []
            guard fields.count == 3, let applicationID = Int64(fields[0]), let version = Int32(fields[1]) else {
                flush()
                return
            }
            responses.invalidate(applicationID: applicationID, attributesType: String(fields[2]), version: version)
        case "token_revoked":
            tokens.removeAll()
        default:
            flush()
        }
    }

    func flush() {
        responses.flush()
        tokens.removeAll()
        applications.removeAll()
    }
}
