import HTTPServer
import Registry

/// Create with `"ifExists": "returnExisting"`: a CI run that publishes the schema it built
/// gets the newest live version back when that version already has identical content (see
/// `CanonicalJSON`), and publishes only when something changed. The store decides under the
/// type's lock, so two identical runs at once create one version.
enum PublishIfChanged {
    static let ifExists = FieldName("ifExists", "if_exists")

    /// Whether the body asks for find-or-create; any value but `returnExisting` is a 400.
    static func returnsExisting(_ body: BodyFields) throws(RegistryError) -> Bool {
        guard let value = try body.string(ifExists) else { return false }
        guard value == "returnExisting" else {
            throw .invalidArgument("ifExists: must be \"returnExisting\", not \(JSONWriter.string(.string(value)))")
        }
        return true
    }

    /// `review` is the usual review of a version published now (its answer gains
    /// `"existing": false`); `existing` says which of the two happened.
    static func create(
        _ call: Call, _ request: PublishRequest, application: Application, claim: IdempotencyClaim?, comparing comparison: Comparison,
        review: (Publication) throws(RegistryError) -> PublishReview
    ) throws(RegistryError) -> HTTPResponse {
        let outcome = try call.store.publishUnlessNewestIdentical(
            application: application, attributesType: request.attributesType, version: request.version,
            jsonSchema: request.jsonSchema, by: call.actor, comparing: comparison, once: claim,
            response: { publication throws(RegistryError) in
                let review = try review(publication)
                guard case .object(var body) = review.response(for: publication.schema) else { throw .internal() }
                body["existing"] = .bool(false)
                return PublishAnswer(body: JSONResponse.body(.object(body)), auditDetails: review.auditDetails)
            })
        switch outcome {
        case .existing(let schema):
            return JSONResponse.make(["schema": SchemaJSON.object(schema), "existing": .bool(true)])
        case .published(_, let body):
            call.metrics.recordPublished()
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
        case .replayed(let body):
            return SchemaHandlers.replayResponse(body)
        }
    }
}
