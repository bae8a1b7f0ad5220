import HTTPServer
import Registry

/// `…/{attributesType}/latest` and its form: the newest live version of a type, answered
/// exactly as that version's own URL would answer (its body names the version), with a tag
/// that also names the version. Warm, both lookups are in memory, so an event loop answers.
enum LatestHandlers {
    static func get(_ call: Call) throws(RegistryError) -> Step {
        try newest(call) { application, attributesType, version in
            SchemaHandlers.schemaResponse(call, application, attributesType, version, resolvedFromLatest: true)
        }
    }

    static func form(_ call: Call) throws(RegistryError) -> Step {
        try newest(call) { application, attributesType, version in
            FormHandlers.formResponse(call, application, attributesType, version, resolvedFromLatest: true)
        }
    }

    /// Goes on with the type's newest live version (`newestVersion`), the application and the
    /// type being those the URL names.
    private static func newest(
        _ call: Call, then next: @escaping @Sendable (Application, String, Int32) throws(RegistryError) -> Step
    ) throws(RegistryError) -> Step {
        let attributesType = try call.pathAttributesType()
        let code = try call.query.requiredString(.application)
        return try call.withApplication(code: code) { application throws(RegistryError) in
            try newestVersion(call, application, attributesType) { version throws(RegistryError) in
                try next(application, attributesType, version)
            }
        }
    }

    /// Goes on with the newest live version's number: from memory when known, else read
    /// (without a thread waiting) and remembered unless a publish or delete of the type was
    /// seen meanwhile. 404 when the type has none.
    static func newestVersion(
        _ call: Call, _ application: Application, _ attributesType: String,
        then next: @escaping @Sendable (Int32) throws(RegistryError) -> Step
    ) throws(RegistryError) -> Step {
        let key = LatestVersions.Key(applicationID: application.id, attributesType: attributesType)
        return try Step.after(
            call.caches.latest.version(key),
            load: { done in
                let generation = call.caches.latest.generation(key)
                call.store.start({ $0.list(application: application, attributesType: attributesType, after: nil, limit: 1, then: $1) }) { read in
                    done(read.flatMap { rows in Result { () throws(RegistryError) in
                        try remembered(call, rows, attributesType, key, readAt: generation)
                    } })
                }
            },
            then: next)
    }

    /// The newest of `rows` (newest first), remembered for the type; 404 when there is none.
    private static func remembered(
        _ call: Call, _ rows: [SchemaVersion], _ attributesType: String, _ key: LatestVersions.Key, readAt generation: Int
    ) throws(RegistryError) -> Int32 {
        guard let newest = rows.first else {
            throw .notFound("attributesType \(JSONWriter.string(.string(attributesType))) has no live version")
        }
        call.caches.latest.remember(newest.version, for: key, readAt: generation)
        return newest.version
    }
}
