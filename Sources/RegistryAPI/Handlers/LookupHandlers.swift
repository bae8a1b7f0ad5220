import HTTPServer
import Registry

/// `POST /api/live_activity_schemas:lookup`: "is this schema registered?" for CI pipelines.
/// The body is a Create body; the answer is the newest live version of the type whose content
/// is identical (`CanonicalJSON`: whitespace outside strings ignored, everything else as
/// written) and that is not disabled, or a 404.
enum LookupHandlers {
    /// Reads on the loop. Hashing the submitted text takes time in proportion to its size: a
    /// large one is hashed on a handler thread.
    static func lookup(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let request = try PublishRequest(call.body())
        let application = try await call.application(code: request.applicationCode)
        let contentHash: [UInt8]
        if Reviews.isHeavy(request.jsonSchema) {
            contentHash = try await call.work { CanonicalJSON.contentHash(request.jsonSchema) }
        } else {
            contentHash = CanonicalJSON.contentHash(request.jsonSchema)
        }
        let found = try await call.read {
            try await $0.newestIdentical(application: application, attributesType: request.attributesType, contentHash: contentHash)
        }
        guard let schema = found else {
            throw .notFound("attributesType \(JSONWriter.string(.string(request.attributesType))) has no live version with this content")
        }
        call.noteRead(application, schema.attributesType, schema.version)
        return VersionNotice.noting(schema, in: JSONResponse.make(bytes: SchemaJSON.getBody(schema)))
    }
}
