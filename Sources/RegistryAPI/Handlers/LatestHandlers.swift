import HTTPServer
import Registry

/// `…/{attributesType}/latest` and its form: the newest live version of a type, answered
/// exactly as that version's own URL would answer (its body names the version), with a tag
/// that also names the version. Warm, both lookups are in memory, so an event loop answers.
enum LatestHandlers {
    static func get(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let (application, attributesType) = try address(call)
        let version = try newestVersion(call, application, attributesType)
        return try SchemaHandlers.schemaResponse(call, application, attributesType, version, resolvedFromLatest: true)
    }

    static func form(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let (application, attributesType) = try address(call)
        let version = try newestVersion(call, application, attributesType)
        return try FormHandlers.formResponse(call, application, attributesType, version, resolvedFromLatest: true)
    }

    /// The newest live version's number: from memory when known, else read and remembered
    /// unless a publish or delete of the type was seen meanwhile. 404 when the type has none.
    static func newestVersion(_ call: Call, _ application: Application, _ attributesType: String) throws(RegistryError)
        -> Int32
    {
        let key = LatestVersions.Key(applicationID: application.id, attributesType: attributesType)
        if let version = call.caches.latest.version(key) { return version }
        let generation = call.caches.latest.generation(key)
        guard let newest = try call.store.list(application: application, attributesType: attributesType, after: nil, limit: 1).first
        else {
            throw .notFound("attributesType \(JSONWriter.string(.string(attributesType))) has no live version")
        }
        call.caches.latest.remember(newest.version, for: key, readAt: generation)
        return newest.version
    }

    private static func address(_ call: Call) throws(RegistryError) -> (Application, String) {
        let attributesType = try call.pathAttributesType()
        let code = try call.query.requiredString(.application)
        return (try call.application(code: code), attributesType)
    }
}
