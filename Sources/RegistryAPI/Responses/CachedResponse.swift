import HTTPServer
import Registry

/// GET responses of immutable resources (a version, its form): served from the response
/// cache when present, always with a strong content-hash `ETag`, and `304 Not Modified` when
/// the client already holds it. `Cache-Control: private, no-cache` makes gateways revalidate,
/// so nobody serves a version after it is deleted.
enum CachedResponse {
    static func respond(
        _ call: Call, key: ResponseCache.Key, render: () throws(RegistryError) -> [UInt8]
    ) throws(RegistryError) -> HTTPResponse {
        let cache = call.caches.responses
        let entry: ResponseCache.Entry
        if let cached = cache.entry(key) {
            entry = cached
        } else {
            let epoch = cache.epoch
            let body = try render()
            entry = ResponseCache.Entry(body: body, etag: EntityTag.of(body))
            cache.insert(entry, for: key, readAt: epoch)
        }
        let headers = [("ETag", entry.etag), ("Cache-Control", "private, no-cache")]
        if EntityTag.matches(call.request.header("if-none-match"), entry.etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")] + headers, body: entry.body)
    }
}
