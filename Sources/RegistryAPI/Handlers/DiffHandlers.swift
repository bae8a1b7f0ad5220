import HTTPServer
import Registry

/// `GET …/{attributesType}/{version}:diff?against=N`: what changed field by field from version
/// N (by default the previous live version) to this one, each change marked breaking or not by
/// the compatibility check.
enum DiffHandlers {
    static let against = FieldName("against")

    /// Reads both versions on the loop, one after the other (the newer first, so its 404
    /// comes first), and compares them there unless a text is large.
    static func diff(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType, version) = try call.versionPath()
        let application = try await call.application(code: code)
        let requested = try call.query.string(against).flatMap { text throws(RegistryError) -> Int32? in
            text.isEmpty ? nil : try VersionNumber.parse(text, field: "against")
        }
        let newer = try await SchemaHandlers.live(call, application, attributesType, version)
        let earlier = try await earlier(call, application, attributesType, before: version, requested: requested)
        return VersionNotice.noting(newer, in: try await compared(call, newer, with: earlier, application: application))
    }

    /// The version to compare with: `requested` (refused when disabled), else the previous
    /// live version that is not disabled (404 when there is none).
    private static func earlier(
        _ call: Call, _ application: Application, _ attributesType: String, before version: Int32, requested: Int32?
    ) async throws(RegistryError) -> SchemaVersion {
        if let requested { return try await SchemaHandlers.live(call, application, attributesType, requested) }
        // The list order is version descending within a type: the first live version after
        // this one is the previous live version.
        let rows = try await call.read {
            try await $0.list(
                application: application, attributesType: attributesType,
                after: ListCursor(attributesType: attributesType, version: version), limit: 1)
        }
        guard let previous = rows.first else {
            throw .notFound(
                "attributesType \(JSONWriter.string(.string(attributesType))) has no live version before \(version) to compare with; pass against")
        }
        return previous
    }

    /// The diff, from memory when these two texts were compared before; else on the event
    /// loop, or on a handler thread when a text is large (`Reviews.isHeavy`: parsing and
    /// comparing take milliseconds), and then remembered.
    private static func compared(_ call: Call, _ newer: SchemaVersion, with earlier: SchemaVersion, application: Application)
        async throws(RegistryError) -> HTTPResponse
    {
        let key = DiffCache.key(from: earlier, to: newer)
        let address: JSONObject = [
            "application": .string(application.code),
            "attributes_type": .string(newer.attributesType),
            "version": .number(String(newer.version)),
            "against": .number(String(earlier.version)),
        ]
        if let fields = call.caches.diffs.fields(for: key) {
            return JSONResponse.make(.object(JSONObject(address.members + fields.members)))
        }
        let caches = call.caches
        let respond = { @Sendable () throws(RegistryError) -> HTTPResponse in
            let diff = SchemaDiff(
                from: try caches.documents.document(of: earlier), oldVersion: earlier.version, to: try caches.documents.document(of: newer))
            let fields: JSONObject = [
                "compatible": .bool(diff.compatibility.isCompatible),
                "changes": .array(diff.changes.map(\.jsonValue)),
                "problems": .array(diff.compatibility.problems.map(\.jsonValue)),
            ]
            caches.diffs.insert(fields, for: key)
            return JSONResponse.make(.object(JSONObject(address.members + fields.members)))
        }
        guard Reviews.isHeavy(newer.jsonSchema) || Reviews.isHeavy(earlier.jsonSchema) else { return try respond() }
        return try await call.work(respond)
    }
}
