/// Publishing, written once as a sequence over a `PublishTransaction`: claim the key, allocate
/// and insert the version, review it, record the audit event and the key's response, all in
/// one transaction that commits only if the review returns.
extension PublishingStore {
    /// Publishes in one transaction that commits only if `response(publication)` returns: when
    /// it throws (new problems under `requireCompatible` or a rejecting policy), nothing is
    /// written. The publication carries the type's policy and what to compare with
    /// (`ComparisonBasis`, as much as `comparison` asks for), read after the type's review lock
    /// when the review may refuse. The same transaction writes the `publish` audit event with
    /// the answer's details, and records `actor` as the version's publisher.
    ///
    /// With a `claim`, publishes at most once per key: the key is claimed in the same
    /// transaction and the response recorded under it, so a concurrent or later request with
    /// the same key and body gets `.replayed` with that response; another body is a 409.
    ///
    /// With `returningIdenticalNewest`, nothing is written when the type's newest live version
    /// has the content identity of `jsonSchema`: that version is `.existing`. Decided under the
    /// type's locks (`PublishTransaction.lockType`), so concurrent identical requests on any
    /// replicas publish once; finding one rolls everything back, the key's claim included.
    ///
    /// Throws `.alreadyExists` when the (type, version) pair was ever published (deleted
    /// versions included) and `.invalidArgument` when no version is free.
    ///
    /// `metadata` (labels, release notes) and `fieldPaths` (nil: left to the store's backfill)
    /// are written with the version; the answer's warnings are stored with it before the commit.
    public func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        metadata: VersionMetadata = VersionMetadata(), fieldPaths: [String]? = nil, comparing comparison: Comparison,
        once claim: IdempotencyClaim?,
        returningIdenticalNewest: Bool = false, response: (Publication) async throws -> PublishAnswer
    ) async throws -> PublishOutcome {
        let contentHash = returningIdenticalNewest ? CanonicalJSON.contentHash(jsonSchema) : nil
        do {
            return try await transaction { transaction async throws -> PublishOutcome in
                if let claim, let stored = try await transaction.claim(claim) { return .replayed(body: try claim.replay(stored)) }
                var effective = version
                if let contentHash {
                    let type = try await transaction.lockType(application: application, attributesType: attributesType)
                    if let newest = type.newest, newest.contentHash == contentHash { throw FoundExisting(schema: newest.schema) }
                    // A new type's counter holds 1 once locked: the next free version is that 1.
                    if type.isNew && version == .nextFree { effective = .explicit(1) }
                }
                let publication = try await transaction.insert(
                    application: application, attributesType: attributesType, version: effective, jsonSchema: jsonSchema, by: actor,
                    metadata: metadata, fieldPaths: fieldPaths, comparing: comparison)
                let answer = try await response(publication)
                if !answer.warnings.isEmpty { try await transaction.recordWarnings(answer.warnings, of: publication.schema, in: application) }
                try await transaction.record(
                    AuditRecord(
                        accountID: application.accountID, actor: actor, action: .publish, applicationID: application.id,
                        attributesType: publication.schema.attributesType, version: publication.schema.version,
                        details: answer.auditDetails))
                if let claim { try await transaction.recordResponse(answer.body, under: claim) }
                return .published(publication.schema, body: answer.body)
            }
        } catch let found as FoundExisting {
            return .existing(found.schema)
        }
    }

    /// Publishes with nothing to review: the answer is empty and the audit event has no
    /// details. Returns the version with what it was compared with.
    public func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison = Comparison(limit: 100)
    ) async throws -> Publication {
        var published: Publication?
        _ = try await publish(
            application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
            comparing: comparison, once: nil, response: { publication in
                published = publication
                return PublishAnswer(body: [], auditDetails: [:])
            })
        guard let published else { throw RegistryError.internal("publish returned no version") }
        return published
    }
}

/// Carries the version found out of the transaction, which rolls back on the way.
private struct FoundExisting: Error {
    let schema: SchemaVersion
}
