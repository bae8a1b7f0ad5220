import HTTPServer
import Registry

/// `POST /api/live_activity_schemas:lookup`: "is this schema registered?" for CI pipelines.
/// The body is a Create body; the answer is the newest live version of the type whose content
/// is identical (`CanonicalJSON`: whitespace outside strings ignored, everything else as
/// written), or a 404.
enum LookupHandlers {
    /// Reads without a thread waiting. Hashing the submitted text takes time in proportion to
    /// its size: a large one is hashed on a handler thread, which starts the read.
    static func lookup(_ call: Call) throws(RegistryError) -> Step {
        let request = try PublishRequest(call.body())
        return try call.withApplication(code: request.applicationCode) { application in
            let found = { @Sendable () -> Step in
                let contentHash = CanonicalJSON.contentHash(request.jsonSchema)
                return Step.reading(call.store, { $0.newestIdentical(
                    application: application, attributesType: request.attributesType, contentHash: contentHash, then: $1) }
                ) { schema throws(RegistryError) in
                    guard let schema else {
                        throw .notFound(
                            "attributesType \(JSONWriter.string(.string(request.attributesType))) has no live version with this content")
                    }
                    return .respond(HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: SchemaJSON.getBody(schema)))
                }
            }
            guard Reviews.isHeavy(request.jsonSchema) else { return found() }
            return .work(found)
        }
    }
}
