import HTTPServer
import Registry

/// `GET /api/audit_events?application=…`: an application's changes, newest first, paged
/// like the list and filtered by type, action and time range. Needs `admin`.
enum AuditHandlers {
    /// Events per page when `pageSize` is omitted or 0: the trail only grows, so it is never
    /// returned whole.
    static let defaultPageSize = 100
    /// The details bytes one page holds: past them the page ends early, with its
    /// `next_page_token`, so a page's memory does not grow with what its rows hold.
    static let pageBytes = 1 << 20

    /// Reads a page (at most 1,000 events) on the loop.
    static func list(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let code = try call.query.requiredString(.application)
        let attributesType = try call.query.string(.attributesType)
        if let attributesType { try AttributesTypeName.validate(attributesType) }
        let action = try call.query.string(.action).map { text throws(RegistryError) in try AuditAction.parse(text, field: "action") }
        let since = try call.query.string(.since).map { text throws(RegistryError) in try RFC3339Time.unixSeconds(text, field: "since") }
        let until = try call.query.string(.until).map { text throws(RegistryError) in try RFC3339Time.unixSeconds(text, field: "until") }
        let pageSize = try SchemaHandlers.pageSize(call.query.string(.pageSize)) ?? defaultPageSize
        let cursor = try call.query.pageToken(AuditPageToken.decode)
        let application = try await call.application(code: code)
        let query = AuditQuery(
            order: .newestFirst, applicationID: application.id, attributesType: attributesType, action: action, since: since,
            until: until, cursor: cursor, limit: pageSize + 1, pageBytes: pageBytes)
        return page(try await call.read { try await $0.auditEvents(query) }, pageSize)
    }

    /// `events` as a page with its token: at most `pageSize` events and, past the first,
    /// `pageBytes` of details. The store sent one more than a page, or the one that crosses
    /// the bytes, when there is more.
    private static func page(_ events: [AuditEvent], _ pageSize: Int) -> HTTPResponse {
        var kept = 0
        var bytes = 0
        for event in events.prefix(pageSize) {
            bytes += event.detailsBytes
            if kept > 0, bytes > pageBytes { break }
            kept += 1
        }
        var body: JSONObject = [:]
        var events = events
        if events.count > kept {
            events.removeLast(events.count - kept)
            if let last = events.last { body["next_page_token"] = .string(AuditPageToken.encode(last.id)) }
        }
        body["audit_events"] = .array(events.map { $0.jsonValue })
        return JSONResponse.make(.object(body))
    }
}
