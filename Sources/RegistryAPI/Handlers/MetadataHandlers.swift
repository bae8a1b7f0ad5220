import HTTPServer
import Registry

/// Reading and replacing metadata: a type's at `/api/live_activity_types/{attributesType}/metadata`,
/// a version's labels and release notes at `/api/live_activity_schemas/{attributesType}/{version}/metadata`.
/// Each change is one statement with its audit event, on the loop; the version's rendered body
/// is forgotten here at once and on the other replicas from the change feed.
enum MetadataHandlers {
    static let releaseNotes = FieldName("releaseNotes", "release_notes", shown: .snake)
    static let labels = FieldName("labels")

    static func getType(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType) = try call.typePath()
        let application = try await call.application(code: code)
        let metadata = try await call.read { try await $0.typeMetadata(application: application, attributesType: attributesType) }
        return respond(try found(metadata, attributesType), application: application, attributesType: attributesType)
    }

    static func setType(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let (code, attributesType) = try call.typePath()
        let application = try await call.application(code: code)
        // Checked once the caller may touch the application, so a refusal comes first.
        let metadata = try TypeMetadata(body.object)
        let stored = try await call.read {
            try await $0.setTypeMetadata(application: application, attributesType: attributesType, to: metadata, by: call.actor)
        }
        return respond(try found(stored, attributesType), application: application, attributesType: attributesType)
    }

    static func setVersion(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let (code, attributesType, version) = try call.versionPath()
        let application = try await call.application(code: code)
        let metadata = try versionMetadata(body)
        let stored = try await call.read {
            try await $0.setVersionMetadata(
                application: application, attributesType: attributesType, version: version, to: metadata, by: call.actor)
        }
        let schema = try SchemaHandlers.found(stored, attributesType, version, for: call)
        call.caches.forget(CommittedChange(applicationID: application.id, kind: .metadataChanged, attributesType: attributesType, version: version))
        return JSONResponse.make(["schema": SchemaJSON.object(schema)])
    }

    /// A body's `labels` and `release_notes` (either spelling), as publish and the version
    /// route take them.
    static func versionMetadata(_ body: BodyFields) throws(RegistryError) -> VersionMetadata {
        try VersionMetadata(labels: body.value(labels), releaseNotes: body.value(releaseNotes), notesField: releaseNotes.shown)
    }

    private static func found(_ metadata: TypeMetadata?, _ attributesType: String) throws(RegistryError) -> TypeMetadata {
        guard let metadata else { throw .notFound("attributesType \(ClientText.quoted(attributesType)) has no live version") }
        return metadata
    }

    /// `{"metadata": {"application", "attributes_type", "description", "owner", "labels",
    /// "links", "updated"?}}`: every field, empty when unset, so an editor can show the form.
    private static func respond(_ metadata: TypeMetadata, application: Application, attributesType: String) -> HTTPResponse {
        var object: JSONObject = [
            "application": .string(application.code),
            "attributes_type": .string(attributesType),
            "description": .string(metadata.description),
            "owner": .string(metadata.owner),
            "labels": .object(metadata.labels),
            "links": metadata.linksJSON,
        ]
        if let updated = metadata.updated { object["updated"] = .string(updated) }
        return JSONResponse.make(["metadata": .object(object)])
    }
}
