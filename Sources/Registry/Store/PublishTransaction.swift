/// A store that opens publish transactions; `SchemaStore` is one. The publish operation
/// (`publish`) is written over this alone.
public protocol PublishingStore {
    /// Runs `body` in one write transaction: committed when it returns, rolled back when it
    /// throws. Awaited on an event loop, the transaction holds one of the loop's sessions and
    /// no thread while it waits for the database or for `body`.
    func transaction<T: Sendable>(_ body: (any PublishTransaction) async throws -> T) async throws -> T
}

/// The writes of one publish, inside one transaction the store opens (`SchemaStore.transaction`):
/// nothing is visible to other requests until the body returns, and everything is undone when
/// it throws. The store may run the body again from the start when the database asks it to
/// (a transient conflict), so the body must do nothing outside the transaction.
public protocol PublishTransaction {
    /// Claims the key for this transaction: nil when it is now this transaction's, otherwise
    /// the response recorded under it. A concurrent claim of the same key waits until this
    /// transaction ends, so a key never publishes twice.
    func claim(_ claim: IdempotencyClaim) async throws -> StoredResponse?

    /// Allocates the version (the next free one, or the one asked for) and inserts it, returning
    /// it with what it must be compared with, read in the same snapshot. A publish that the
    /// review may refuse (`comparison.mayBeRefused`, or a policy that rejects) takes the type's
    /// review lock first, so concurrent reviewed publishes of a type are reviewed one after the
    /// other. `fieldPaths` (`FormDescriptor.fieldPaths`) are written with the version, for
    /// search; nil leaves them to the store's backfill. Throws `.alreadyExists` when the version
    /// was ever published (deleted versions included) and `.invalidArgument` when no version is
    /// free.
    func insert(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        metadata: VersionMetadata, fieldPaths: [String]?, comparing comparison: Comparison
    ) async throws -> Publication

    /// Stores the warnings the review of a version just inserted answered; called only when
    /// there are some, so a publish without warnings rewrites no row.
    func recordWarnings(_ warnings: [JSONValue], of schema: SchemaVersion, in application: Application) async throws

    /// Takes the type's review lock and then its version counter, and only then reads the
    /// type's newest live version, so it sees every publish of the type that committed before.
    func lockType(application: Application, attributesType: String) async throws -> LockedType

    /// Writes an audit event in this transaction.
    func record(_ record: AuditRecord) async throws

    /// Records the response under a key this transaction claimed.
    func recordResponse(_ body: [UInt8], under claim: IdempotencyClaim) async throws
}

/// A type as `PublishTransaction.lockType` found it under its locks.
public struct LockedType: Sendable {
    /// The type had no version counter: no version was ever published, and the counter now
    /// holds 1, so the next free version is 1.
    public let isNew: Bool
    /// The newest live version, with its content identity (`CanonicalJSON.contentHash`).
    public let newest: (schema: SchemaVersion, contentHash: [UInt8])?

    public init(isNew: Bool, newest: (schema: SchemaVersion, contentHash: [UInt8])?) {
        self.isNew = isNew
        self.newest = newest
    }
}
