import Registry

/// What Create and `:validate` both learn about a submitted schema: the validated document,
/// its compatibility with earlier live versions of the type, and warnings (a worst-case start
/// payload that cannot fit APNs' 4 KB). Create learns the earlier versions from its publish
/// statement, so the review is made after the insert (and before the commit when it may veto).
struct PublishReview {
    let document: SchemaDocument
    let compatibility: CompatibilityReport
    let warnings: [JSONValue]

    /// The dry run: validates the text, then reads the earlier texts itself.
    init(_ request: PublishRequest, application: Application, store: Storage) throws(RegistryError) {
        let submitted = try store.caches.documents.validated(request.jsonSchema)
        let earlier = try store.distinctLiveSchemas(application: application, attributesType: request.attributesType)
        try self.init(request, submitted, earlier: earlier, documents: store.caches.documents)
    }

    /// The review of `submitted` against `earlier` (as the publish statement returned them, or
    /// as the dry run read them). A text identical to the submitted one is compatible with no
    /// findings, so it is not compared; one that no longer passes the rules is skipped. Throws
    /// the 409 of `requireCompatible`.
    init(_ request: PublishRequest, _ submitted: ValidatedSchema, earlier: [EarlierSchema], documents: SchemaDocumentCache)
        throws(RegistryError)
    {
        document = submitted.document
        var compared: [(version: Int32, document: SchemaDocument)] = []
        for schema in earlier where schema.contentHash != submitted.contentHash {
            if case .explicit(let version) = request.version, schema.version >= version { continue }
            guard let old = try? documents.document(schema.jsonSchema, contentHash: schema.contentHash) else { continue }
            compared.append((schema.version, old))
        }
        compatibility = Compatibility.report(for: document, against: compared)
        if request.requireCompatible, !compatibility.isCompatible {
            let findings = compatibility.problems.map { "\($0.path) (\($0.problem), against version \($0.version))" }
            throw .alreadyExists(
                "requireCompatible: the schema is not compatible with earlier versions: " + findings.joined(separator: "; "))
        }
        var warnings: [JSONValue] = []
        let limit = LiveActivityPreview.maxPayloadBytes
        if let worst = PayloadSizeEstimator.worstCaseStartPayloadBytes(of: document, attributesType: request.attributesType),
            worst > limit
        {
            warnings.append([
                "path": "jsonSchema",
                "message": .string("a start push with the longest values this schema allows is \(worst) bytes, over APNs' \(limit)-byte limit"),
            ])
        } else if let content = PayloadSizeEstimator.maxContentStateBytes(of: document), content > limit {
            warnings.append([
                "path": "jsonSchema.properties",
                "message": .string("the content state alone can reach \(content) bytes, over APNs' \(limit)-byte payload limit"),
            ])
        }
        self.warnings = warnings
    }

    /// The Create response for the version that was published.
    func response(for schema: SchemaVersion) -> JSONValue {
        var body: JSONObject = ["schema": SchemaJSON.object(schema)]
        annotate(&body)
        return .object(body)
    }

    /// What the publish's audit event records: the compatibility verdict, with the problems
    /// that were accepted when it was not compatible.
    var auditDetails: JSONObject {
        ["compatibility": compatibility.jsonValue]
    }

    /// Adds `compatibility` and, when there are any, `warnings` to a response body.
    func annotate(_ body: inout JSONObject) {
        body["compatibility"] = compatibility.jsonValue
        if !warnings.isEmpty { body["warnings"] = .array(warnings) }
    }
}
