import HTTPServer
import Registry

/// The form of a published version and the dry run of a publish (forms.md).
enum FormHandlers {
    static func form(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let (application, attributesType, version) = try SchemaHandlers.versionAddress(call)
        let key = ResponseCache.Key(applicationID: application.id, attributesType: attributesType, version: version, kind: .form)
        return try CachedResponse.respond(call, key: key) { () throws(RegistryError) in
            let schema = try SchemaHandlers.found(
                call.store.schema(application: application, attributesType: attributesType, version: version), attributesType, version)
            let document = try schema.document()
            let body = JSONResponse.body([
                "form": FormJSON.object(document, application: application.code, attributesType: attributesType, version: version)
            ])
            return CachedResponse.entry(call, body: body, kind: .form, of: schema)
        }
    }

    /// Every Create check except the version conflict; nothing is written.
    static func validate(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let request = try PublishRequest(call.body())
        let application = try call.application(code: request.applicationCode)
        let review = try PublishReview(request, application: application, store: call.store)
        var body: JSONObject = [
            "form": FormJSON.object(review.document, application: application.code, attributesType: request.attributesType, version: nil)
        ]
        review.annotate(&body)
        return JSONResponse.make(.object(body))
    }
}
