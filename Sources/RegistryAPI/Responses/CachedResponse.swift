import HTTPServer
import Registry

/// GET responses of immutable resources (a version, its form): served from the response
/// cache when present, always with a strong content-hash `ETag`, and `304 Not Modified` when
/// the client already holds it. `Cache-Control: private, no-cache` makes gateways revalidate,
/// so nobody serves a version after it is deleted. Every answer, cached or not, is noted as a
/// read of its version (`Call.noteRead`).
enum CachedResponse {
    /// From memory on a hit. On a miss the version is read on the loop, then rendered by
    /// `render` and cached: on the loop, or on a handler thread (holding a heavy-work permit)
    /// when `isHeavy` says the rendering takes much CPU.
    /// - Parameter resolvedFromLatest: the URL said `latest`, not this version: the tag then
    ///   names the version too (`EntityTag.naming`), so it changes when `latest` moves on even
    ///   to identical content.
    static func respond(
        _ call: Call, _ kind: ResponseCache.Kind, of application: Application, _ attributesType: String, _ version: Int32,
        resolvedFromLatest: Bool = false, isHeavy: @Sendable (SchemaVersion) -> Bool = { _ in false },
        render: @escaping @Sendable (SchemaVersion) throws(RegistryError) -> [UInt8]
    ) async throws(RegistryError) -> HTTPResponse {
        let key = ResponseCache.Key(applicationID: application.id, attributesType: attributesType, version: version, kind: kind)
        let entry = try await call.caches.response(key) { () async throws(RegistryError) in
            let schema = try await SchemaHandlers.live(call, application, attributesType, version) { call.caches.noteMiss(key) }
            return try await call.compute(heavy: isHeavy(schema)) { () throws(RegistryError) in
                Self.entry(call, body: try render(schema), kind: kind, of: schema)
            }
        }
        call.noteRead(application, attributesType, version)
        return response(call, entry, key: key, resolvedFromLatest: resolvedFromLatest)
    }

    private static func response(_ call: Call, _ entry: ResponseCache.Entry, key: ResponseCache.Key, resolvedFromLatest: Bool)
        -> HTTPResponse
    {
        let etag = resolvedFromLatest ? EntityTag.naming(version: key.version, entry.etag) : entry.etag
        let notModified = EntityTag.matches(call.request.header("if-none-match"), etag)
        var response = HTTPResponse(status: notModified ? 304 : 200, body: notModified ? [] : entry.body)
        // One array for every header, with room for the two `RequestLog` adds: built from
        // literals and joined, this cost four arrays on every cache hit.
        response.headers.reserveCapacity(5 + entry.notices.count)
        if !notModified { response.headers.append((name: "Content-Type", value: "application/json")) }
        response.headers.append((name: "ETag", value: etag))
        response.headers.append((name: "Cache-Control", value: "private, no-cache"))
        response.headers += entry.notices
        return response
    }

    /// `body`, a representation of `schema` of the given kind, with a tag derived from the
    /// stored content hash and the version's state: the body is never hashed, which for a
    /// large schema or form cost more than rendering it. A version's labels, release notes and
    /// warnings can change after publishing, so its tag covers them too (they are small).
    static func entry(_ call: Call, body: [UInt8], kind: ResponseCache.Kind, of schema: SchemaVersion) -> ResponseCache.Entry {
        var contentHash = schema.contentHash ?? SHA256.hash(schema.jsonSchema.utf8)
        if kind == .schema, let described = SchemaJSON.describedBytes(schema) { contentHash = SHA256.hash(contentHash + described) }
        return ResponseCache.Entry(
            body: body,
            etag: EntityTag.derived(
                kind: "\(kind)" + VersionNotice.tagStamp(schema.state), contentHash: contentHash, salt: call.caches.entityTagSalt),
            notices: VersionNotice.headers(schema.state))
    }
}
