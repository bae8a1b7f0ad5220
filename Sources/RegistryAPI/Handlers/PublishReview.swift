import Registry

/// What Create and `:validate` both learn about a submitted schema: the validated document and
/// the domain's checks of it (`PublishChecks`: compatibility with earlier live versions under
/// the type's policy; warnings about the payload size and the names), compared through the
/// outline caches. Create learns what to compare with from its publish statement, so the review
/// is made after the insert (and before the commit when it may refuse).
struct PublishReview {
    let document: SchemaDocument
    let checks: PublishChecks

    /// The dry run's basis: the policy and earlier texts a publish of `request` would be
    /// compared with now, read on the loop.
    static func basis(_ request: PublishRequest, application: Application, call: Call) async throws(RegistryError)
        -> (ComparisonBasis, ReviewOutlines)
    {
        var below: Int32?
        if case .explicit(let version) = request.version { below = version }
        let outlines = call.reviews.outlines.forReview(
            limit: call.reviews.maxComparedVersions, mayBeRefused: request.requireCompatible)
        let basis = try await call.read {
            try await $0.comparisonBasis(
                application: application, attributesType: request.attributesType, below: below, comparing: outlines.comparison)
        }
        return (basis, outlines)
    }

    /// The review of `submitted` against `basis` (as the publish statement returned it, or as
    /// the dry run read it). Texts that no longer pass the rules are skipped. Throws the 409 of
    /// a refusal: new problems under `requireCompatible` or a policy that rejects. The report
    /// lists at most `listLimit` entries of each kind.
    init(
        _ request: PublishRequest, _ submitted: ValidatedSchema, basis: ComparisonBasis, outlines: ReviewOutlines,
        listLimit: Int
    ) throws(RegistryError) {
        document = submitted.document
        let compatibility = Compatibility.review(
            outlines.outline(of: submitted), contentHash: submitted.contentHash, policy: basis.policy.policy,
            newest: basis.newest.flatMap(outlines.compared), earlier: basis.earlier.compactMap(outlines.compared),
            limitReached: basis.limitReached, listLimit: listLimit)
        var explicitVersion: Int32?
        if case .explicit(let version) = request.version { explicitVersion = version }
        checks = try PublishChecks(
            submitted.document, attributesType: request.attributesType, compatibility: compatibility,
            requireCompatible: request.requireCompatible, explicitVersion: explicitVersion, newestVersion: basis.newestVersion)
    }

    /// The Create response for the version that was published.
    func response(for schema: SchemaVersion) -> JSONValue {
        var body: JSONObject = ["schema": SchemaJSON.object(schema)]
        annotate(&body)
        return .object(body)
    }

    /// What the publish's audit event records (`PublishChecks.auditDetails`).
    var auditDetails: JSONObject { checks.auditDetails }

    /// Adds `compatibility` and, when there are any, `warnings` to a response body.
    func annotate(_ body: inout JSONObject) {
        body["compatibility"] = checks.compatibility.jsonValue
        if !checks.warnings.isEmpty { body["warnings"] = .array(checks.warnings) }
    }
}
