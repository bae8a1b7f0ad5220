import HTTPServer
import Registry

/// `…/{attributesType}/latest` and its form: the version `latest` names for a type
/// (`LatestCandidates`: the pin, else the newest active version, else the newest deprecated
/// one; never a disabled one), answered exactly as that version's own URL would answer (its
/// body names the version), with a tag that also names the version. Warm, both lookups are in
/// memory, so an event loop answers.
enum LatestHandlers {
    static func get(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (application, attributesType, version) = try await newest(call)
        return try await SchemaHandlers.schemaResponse(call, application, attributesType, version, resolvedFromLatest: true)
    }

    static func form(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (application, attributesType, version) = try await newest(call)
        return try await FormHandlers.formResponse(call, application, attributesType, version, resolvedFromLatest: true)
    }

    /// The application and type the URL names, and the type's newest live version.
    private static func newest(_ call: Call) async throws(RegistryError) -> (Application, String, Int32) {
        let (code, attributesType) = try call.typePath()
        let application = try await call.application(code: code)
        return (application, attributesType, try await newestVersion(call, application, attributesType))
    }

    /// The number `latest` names (`Caches.latestVersion`), read on the loop when not known.
    /// 404 when the type has no version that is not disabled.
    static func newestVersion(_ call: Call, _ application: Application, _ attributesType: String) async throws(RegistryError) -> Int32 {
        let key = LatestVersions.Key(applicationID: application.id, attributesType: attributesType)
        return try await call.caches.latestVersion(key) { () async throws(RegistryError) in
            let candidates = try await call.read { try await $0.latestCandidates(application: application, attributesType: attributesType) }
            guard let latest = candidates.latest else {
                throw .notFound("attributesType \(JSONWriter.string(.string(attributesType))) has no live version")
            }
            return latest
        }
    }
}
