import HTTPServer
import Registry

/// `POST /api/live_activity_schemas:lookup`: "is this schema registered?" for CI pipelines.
/// The body is a Create body; the answer is the newest live version of the type whose content
/// is identical (`CanonicalJSON`: whitespace outside strings ignored, everything else as
/// written), or a 404.
enum LookupHandlers {
    static func lookup(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let request = try PublishRequest(call.body())
        let application = try call.application(code: request.applicationCode)
        guard
            let schema = try call.store.run({ try $0.newestIdentical(
                application: application, attributesType: request.attributesType,
                contentHash: CanonicalJSON.contentHash(request.jsonSchema)) })
        else {
            throw .notFound(
                "attributesType \(JSONWriter.string(.string(request.attributesType))) has no live version with this content")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: SchemaJSON.getBody(schema))
    }
}
