import Registry

/// What Create and `:validate` both learn about a submitted schema: the validated document,
/// its compatibility with earlier live versions of the type under the type's policy, and
/// warnings (a worst-case start payload that cannot fit APNs' 4 KB, a type name no Swift type can
/// have, names that may be mistaken for others, `type` values that are not JSON Schema type names). Create learns what to compare with from its publish statement, so the review
/// is made after the insert (and before the commit when it may refuse).
struct PublishReview {
    let document: SchemaDocument
    let compatibility: CompatibilityReport
    let warnings: [JSONValue]

    /// The dry run: validates the text, then reads the policy and earlier texts itself.
    init(_ request: PublishRequest, application: Application, call: Call) throws(RegistryError) {
        let submitted = try call.caches.documents.validated(request.jsonSchema)
        var below: Int32?
        if case .explicit(let version) = request.version { below = version }
        let outlines = call.reviews.outlines.forReview(
            limit: call.reviews.maxComparedVersions, mayBeRefused: request.requireCompatible)
        let basis = try call.store.comparisonBasis(
            application: application, attributesType: request.attributesType, below: below, comparing: outlines.comparison)
        try self.init(request, submitted, basis: basis, outlines: outlines)
    }

    /// The review of `submitted` against `basis` (as the publish statement returned it, or as
    /// the dry run read it). Texts that no longer pass the rules are skipped. Throws the 409 of
    /// a refusal: new problems under `requireCompatible` or a policy that rejects.
    init(_ request: PublishRequest, _ submitted: ValidatedSchema, basis: ComparisonBasis, outlines: ReviewOutlines)
        throws(RegistryError)
    {
        document = submitted.document
        compatibility = Compatibility.review(
            outlines.outline(of: submitted), contentHash: submitted.contentHash, policy: basis.policy.policy,
            newest: basis.newest.flatMap(outlines.compared), earlier: basis.earlier.compactMap(outlines.compared),
            limitReached: basis.limitReached)
        if !compatibility.isCompatible, request.requireCompatible || basis.policy.policy.enforce == .reject {
            throw Self.refusal(compatibility, requested: request.requireCompatible)
        }
        let named = [SwiftTypeName.warning(about: request.attributesType)].compactMap { $0 }
            + LookalikeNames.warnings(attributesType: request.attributesType, document: document)
            + SchemaTypeNames.warnings(in: document)
        warnings = Self.payloadWarnings(document, attributesType: request.attributesType)
            + named.map { ["path": .string($0.path), "message": .string($0.message)] }
    }

    /// The 409: the message names each new problem once, with the versions it concerns; the
    /// report itself is the error's one detail.
    static func refusal(_ report: CompatibilityReport, requested: Bool) -> RegistryError {
        let findings = report.groups.filter(\.isNew).map { group in
            "\(group.path) (\(group.kind.rawValue), against version\(group.versions.count == 1 ? "" : "s") \(group.versions.map(String.init).joined(separator: ", ")))"
        }
        let reason = requested
            ? "requireCompatible: the schema is not compatible with earlier versions"
            : "the compatibility policy of this type (\(report.policy.mode.rawValue), reject) refuses the schema"
        var detail: JSONObject = ["@type": "compatibility_report"]
        if case .object(let fields) = report.jsonValue { detail.members += fields.members }
        return RegistryError(
            code: .alreadyExists, message: reason + ": " + findings.joined(separator: "; "),
            details: [.object(detail)])
    }

    private static func payloadWarnings(_ document: SchemaDocument, attributesType: String) -> [JSONValue] {
        let limit = LiveActivityPreview.maxPayloadBytes
        if let worst = PayloadSizeEstimator.worstCaseStartPayloadBytes(of: document, attributesType: attributesType), worst > limit {
            return [[
                "path": "jsonSchema",
                "message": .string("a start push with the longest values this schema allows is \(worst) bytes, over APNs' \(limit)-byte limit"),
            ]]
        }
        if let content = PayloadSizeEstimator.maxContentStateBytes(of: document), content > limit {
            return [[
                "path": "jsonSchema.properties",
                "message": .string("the content state alone can reach \(content) bytes, over APNs' \(limit)-byte payload limit"),
            ]]
        }
        return []
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
