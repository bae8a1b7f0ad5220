import Registry

/// What Create and `:validate` both learn about a submitted schema before anything is
/// written: the validated document, its compatibility with earlier live versions of the type,
/// and warnings (a worst-case start payload that cannot fit APNs' 4 KB).
struct PublishReview {
    let document: SchemaDocument
    let compatibility: CompatibilityReport
    let warnings: [JSONValue]

    init(_ request: PublishRequest, application: Application, store: Storage) throws(RegistryError) {
        document = try SchemaRules.validate(request.jsonSchema)
        var earlier: [(version: Int32, document: SchemaDocument)] = []
        for schema in try store.distinctLiveSchemas(application: application, attributesType: request.attributesType) {
            if case .explicit(let version) = request.version, schema.version >= version { continue }
            guard let old = try? SchemaRules.validate(schema.jsonSchema) else { continue }
            earlier.append((schema.version, old))
        }
        compatibility = Compatibility.report(for: document, against: earlier)
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

    /// Adds `compatibility` and, when there are any, `warnings` to a response body.
    func annotate(_ body: inout JSONObject) {
        body["compatibility"] = compatibility.jsonValue
        if !warnings.isEmpty { body["warnings"] = .array(warnings) }
    }
}
