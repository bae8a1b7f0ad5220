import HTTPServer
import Registry

/// The form of a published version and the dry run of a publish.
enum FormHandlers {
    /// From memory when the application and the form are cached.
    static func form(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType, version) = try call.versionPath()
        let application = try await call.application(code: code)
        return try await formResponse(call, application, attributesType, version)
    }

    /// One version's form, from the response cache when warm; a deprecated version's carries
    /// its `deprecated_version` warning after the form.
    static func formResponse(
        _ call: Call, _ application: Application, _ attributesType: String, _ version: Int32, resolvedFromLatest: Bool = false
    ) async throws(RegistryError) -> HTTPResponse {
        try await CachedResponse.respond(
            call, .form, of: application, attributesType, version, resolvedFromLatest: resolvedFromLatest,
            isHeavy: { schema in Reviews.isHeavy(schema.jsonSchema) },
            render: { schema throws(RegistryError) in
                var annotations = JSONObject()
                if let warning = VersionNotice.warning(schema) { annotations["warnings"] = [warning] }
                return FormJSON.body(
                    try call.caches.documents.document(of: schema), application: application.code, attributesType: attributesType,
                    version: version, annotations: annotations)
            })
    }

    /// Every Create check except the version conflict, under the same policy; nothing is
    /// written. A refusal the policy would give is the same 409.
    ///
    /// Like a publish, the application and what to compare with are read on the loop, and
    /// the review runs there for a small schema, on a handler thread holding a heavy-work
    /// permit for a large one.
    static func validate(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let request = try PublishRequest(call.body())
        let application = try await call.application(code: request.applicationCode)
        let (basis, outlines) = try await PublishReview.basis(request, application: application, call: call)
        return try await call.compute(heavy: Reviews.isHeavy(request.jsonSchema)) { () throws(RegistryError) in
            let submitted = try call.caches.documents.validated(request.jsonSchema)
            let review = try PublishReview(request, submitted, basis: basis, outlines: outlines, listLimit: call.reviews.maxReportedProblems)
            var annotations = JSONObject()
            review.annotate(&annotations)
            let body = FormJSON.body(
                review.document, application: application.code, attributesType: request.attributesType, version: nil,
                annotations: annotations)
            return JSONResponse.make(bytes: body)
        }
    }
}
