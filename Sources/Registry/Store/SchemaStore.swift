/// What the registry needs from storage. Each call is `async`: awaited on an event loop it holds
/// no thread (PostgreSQL sends a statement on the loop's pipelined sessions, a transaction holds
/// a session of its own, and the task resumes when the answer arrives); awaited anywhere else it
/// may block the calling thread (the CLI's calls). Every failure is a `RegistryError`: storage unavailability is `.unavailable` (503,
/// code 14), never a hang.
///
/// Correctness under concurrency is the implementation's job and must come from the database,
/// because several replicas share one store.
///
/// Publishing is not a call of its own: the store opens a transaction (`PublishingStore`) and
/// the domain's publish operation (`PublishOperation.swift`) runs its steps inside it.
public protocol SchemaStore: PublishingStore, UsageStore, WebhookStore, Sendable {
    /// The live (unrevoked, unexpired) token with this SHA-256 hash, or nil. Notes the day of
    /// use (at most one write per token and day).
    func token(forTokenHash hash: [UInt8]) async throws -> TokenGrant?

    /// The application with this code, or nil.
    func application(code: String) async throws -> Application?

    /// The applications of an account, ordered by code.
    func applications(accountID: Int64) async throws -> [Application]

    /// The response recorded under a key of an account's application in the last 24 hours, if
    /// any. Keys are an application's own: a token limited to one application never learns
    /// of, nor claims, another's keys.
    func storedResponse(accountID: Int64, applicationID: Int64, idempotencyKey: String) async throws -> StoredResponse?

    /// One live version in whatever state (readers refuse a disabled one), or nil when unknown
    /// or deleted.
    func schema(application: Application, attributesType: String, version: Int32) async throws -> SchemaVersion?

    /// Live versions in list order (type ascending by bytes, version descending), optionally of
    /// one type, starting after `cursor`, at most `limit` when given; disabled ones only when
    /// `includingDisabled`.
    func list(
        application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?, includingDisabled: Bool
    ) async throws -> [SchemaVersion]

    /// Moves a live version to another state with its `state_change` audit event in the same
    /// transaction, and returns it as it now is; nil (and nothing recorded) when it is unknown
    /// or deleted.
    func changeState(
        application: Application, attributesType: String, version: Int32, to change: StateChange, by actor: AuditActor
    ) async throws -> SchemaVersion?

    /// Pins the type's `latest` to a live version that is not disabled, with its `latest_pin`
    /// audit event; false (and nothing recorded) when there is no such version.
    func pinLatest(application: Application, attributesType: String, version: Int32, by actor: AuditActor) async throws -> Bool

    /// Removes the type's pin with its audit event; the version it named, or nil (and nothing
    /// recorded) when none was set.
    func unpinLatest(application: Application, attributesType: String, by actor: AuditActor) async throws -> Int32?

    /// What `latest` chooses from for a type, read in one snapshot (`LatestCandidates.latest`).
    func latestCandidates(application: Application, attributesType: String) async throws -> LatestCandidates

    /// What a version of the type would be compared with if published now (below `version`
    /// when given), read by the statement a publish ends with, then the texts it needs; for the
    /// dry run. A version deleted between the two has no text and is skipped.
    func comparisonBasis(application: Application, attributesType: String, below version: Int32?, comparing comparison: Comparison)
        async throws -> ComparisonBasis

    /// The policy that applies to a type (`attributesType` nil: the application's default for
    /// its types), and where it was set.
    func compatibilityPolicy(application: Application, attributesType: String?) async throws -> EffectivePolicy

    /// Sets the policy of a type or (`attributesType` nil) of the application, with its
    /// `policy_change` audit event in the same transaction, and returns it as now in force.
    func setCompatibilityPolicy(
        application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor
    ) async throws -> EffectivePolicy

    /// Removes the policy set on a type or (nil) on the application, so the next one up
    /// applies again, with its audit event. Returns false (and records nothing) when none was set.
    func removeCompatibilityPolicy(application: Application, attributesType: String?, by actor: AuditActor) async throws -> Bool

    /// Deletes one live version for good, with its `delete` audit event in the same
    /// transaction. Returns false (and records nothing) when it was unknown or already deleted.
    func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) async throws -> Bool

    /// Audit events matching `query`, in its order, at most `query.limit`.
    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent]

    /// Live types of an application in byte order of their names, each with its live-version
    /// count, newest version and policy in force; at most `limit` when given.
    func types(application: Application, filter: TypeFilter, limit: Int?) async throws -> [TypeSummary]

    /// The newest live version of a type whose content identity (`CanonicalJSON.contentHash`)
    /// is `contentHash`, or nil.
    func newestIdentical(application: Application, attributesType: String, contentHash: [UInt8]) async throws -> SchemaVersion?

    /// The application's change events after `cursor`, oldest first, at most `limit`: only
    /// those every earlier transaction has already committed, so none is ever skipped.
    func changes(application: Application, after cursor: ChangeCursor, limit: Int) async throws -> ChangePage

    /// The position of "now": every event final at this moment is before it.
    func currentChangeCursor() async throws -> ChangeCursor

    /// A live type's metadata (empty when never set); nil when the type has no live version.
    func typeMetadata(application: Application, attributesType: String) async throws -> TypeMetadata?

    /// Replaces a live type's metadata, with its `metadata_change` audit event in the same
    /// transaction, and returns it as stored; nil (and nothing recorded) when the type has no
    /// live version.
    func setTypeMetadata(application: Application, attributesType: String, to metadata: TypeMetadata, by actor: AuditActor) async throws
        -> TypeMetadata?

    /// Replaces a live version's labels and release notes, with its audit event, and returns the
    /// version as stored; nil (and nothing recorded) when it is unknown or deleted.
    func setVersionMetadata(
        application: Application, attributesType: String, version: Int32, to metadata: VersionMetadata, by actor: AuditActor
    ) async throws -> SchemaVersion?

    /// The live types matching every term of `query`, in byte order of their names after
    /// `after`, at most `limit`, each with its first matches.
    func search(application: Application, query: SearchQuery, after: String?, limit: Int) async throws -> [SearchResult]

    /// Every replica's feed position against `target` (nil: the database's position now, which
    /// the answer names for the next read of the same wait).
    func replicaPositions(after target: String?) async throws -> ReplicaPositions
}

extension SchemaStore {
    /// `list` without disabled versions: what every reader but an `include=disabled` list sees.
    public func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?) async throws
        -> [SchemaVersion]
    {
        try await list(application: application, attributesType: attributesType, after: cursor, limit: limit, includingDisabled: false)
    }

    /// A store followed by no replica has none to wait for.
    public func replicaPositions(after target: String?) async throws -> ReplicaPositions {
        ReplicaPositions(target: target ?? "", sightings: [])
    }
}
