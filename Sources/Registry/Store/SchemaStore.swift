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

    /// Publishes a version and returns it with the earlier live texts to compare it with, in
    /// one atomic step. Throws `.alreadyExists` when the (type, version) pair was ever
    /// published (deleted versions included) and `.invalidArgument` when no version is free.
    func publish(application: Application, attributesType: String, version: VersionRequest, jsonSchema: String) throws
        -> Publication

    /// Publishes in one transaction that commits only if `response(publication)` returns: when
    /// it throws (an incompatible schema under `requireCompatible`), nothing is written. With a
    /// `claim`, publishes at most once per key: the key is claimed in the same transaction and
    /// the response recorded under it, so a concurrent or later request with the same key and
    /// body gets `.replayed` with that response; another body is a 409.
    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String,
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

    /// The live versions of a type with distinct schema texts: for each text, its oldest live
    /// version, oldest first. Compatibility compares a new version with these; identical earlier
    /// versions would only repeat the same findings. The cost grows with the number of distinct
    /// texts, not of versions.
    func distinctLiveSchemas(application: Application, attributesType: String) throws -> [EarlierSchema]

    /// Deletes one live version for good. Returns false when it was unknown or already deleted.
    func delete(application: Application, attributesType: String, version: Int32) throws -> Bool

    /// The application's change events after `cursor`, oldest first, at most `limit`: only
    /// those every earlier transaction has already committed, so none is ever skipped.
    func changes(application: Application, after cursor: ChangeCursor, limit: Int) throws -> ChangePage

    /// The position of "now": every event final at this moment is before it.
    func currentChangeCursor() throws -> ChangeCursor
}
