/// What the registry needs from storage. Calls block the calling thread (each HTTP worker owns
/// its request until it answers), and every failure is a `RegistryError`: storage
/// unavailability is `.unavailable` (503, code 14), never a hang.
///
/// Correctness under concurrency is the implementation's job and must come from the database,
/// because several replicas share one store.
public protocol SchemaStore: Sendable {
    /// The account owning the live (unrevoked) token with this SHA-256 hash, or nil.
    func accountID(forTokenHash hash: [UInt8]) throws -> Int64?

    /// The application with this code, or nil.
    func application(code: String) throws -> Application?

    /// The applications of an account, ordered by code.
    func applications(accountID: Int64) throws -> [Application]

    /// Publishes a version and returns it with what to compare it with (`ComparisonBasis`, as
    /// much as `comparison` asks for), in one atomic step that reads the type's policy.
    /// Returns nil and writes nothing when that policy rejects incompatible versions: such a
    /// publish must be reviewed before it commits (the transactional publish). Throws
    /// `.alreadyExists` when the (type, version) pair was ever published (deleted versions
    /// included) and `.invalidArgument` when no version is free.
    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, comparing comparison: Comparison
    ) throws -> Publication?

    /// Publishes in one transaction that commits only if `response(publication)` returns: when
    /// it throws (an incompatible schema under `requireCompatible` or a rejecting policy),
    /// nothing is written. With a `claim`, publishes at most once per key: the key is claimed in
    /// the same transaction and the response recorded under it, so a concurrent or later
    /// request with the same key and body gets `.replayed` with that response; another body is
    /// a 409.
    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, comparing comparison: Comparison,
        once claim: IdempotencyClaim?, response: (Publication) throws -> [UInt8]
    ) throws -> IdempotentPublish

    /// The response recorded under an account's key in the last 24 hours, if any.
    func storedResponse(accountID: Int64, idempotencyKey: String) throws -> StoredResponse?

    /// One live version, or nil when unknown or deleted.
    func schema(application: Application, attributesType: String, version: Int32) throws -> SchemaVersion?

    /// Live versions in list order (type ascending by bytes, version descending), optionally of
    /// one type, starting after `cursor`, at most `limit` when given.
    func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?) throws
        -> [SchemaVersion]

    /// What a version of the type would be compared with if published now (below `version`
    /// when given), read in one snapshot like a publish reads it; for the dry run.
    func comparisonBasis(application: Application, attributesType: String, below version: Int32?, comparing comparison: Comparison)
        throws -> ComparisonBasis

    /// The policy that applies to a type (`attributesType` nil: the application's default for
    /// its types), and where it was set.
    func compatibilityPolicy(application: Application, attributesType: String?) throws -> EffectivePolicy

    /// Sets the policy of a type or (`attributesType` nil) of the application, in one
    /// transaction, and returns it as now in force.
    func setCompatibilityPolicy(application: Application, attributesType: String?, to policy: CompatibilityPolicy) throws
        -> EffectivePolicy

    /// Removes the policy set on a type or (nil) on the application, so the next one up
    /// applies again. Returns false when none was set.
    func removeCompatibilityPolicy(application: Application, attributesType: String?) throws -> Bool

    /// Deletes one live version for good. Returns false when it was unknown or already deleted.
    func delete(application: Application, attributesType: String, version: Int32) throws -> Bool
}
