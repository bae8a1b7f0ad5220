/// The change feed's reads, one statement each, offered so that no thread waits for them: a
/// long poll reads the feed when it arrives and again each time it wakes, and the request
/// holds only its suspended connection meanwhile. A store that can start a statement and be
/// told when it completes (PostgreSQL on the caller's event loop) overrides these.
///
/// `done` is called exactly once, as for `NonBlockingCalls`: later, on the thread that started
/// the read when that thread runs an event loop; or before returning, on the calling thread,
/// when the store can only block (the defaults below, and any caller without an event loop).
public protocol NonBlockingFeed: Sendable {
    /// `SchemaStore.changes`: the application's final events after `cursor`, at most `limit`.
    func changes(
        application: Application, after cursor: ChangeCursor, limit: Int,
        then done: @escaping @Sendable (Result<ChangePage, any Error>) -> Void)
    /// `SchemaStore.currentChangeCursor`: the position of "now".
    func currentChangeCursor(then done: @escaping @Sendable (Result<ChangeCursor, any Error>) -> Void)
    /// Every replica's feed position against `target` (nil: the database's position now, which
    /// the answer names for the next read of the same wait). A store followed by no replica
    /// (the default) has none to wait for.
    func replicaPositions(after target: String?, then done: @escaping @Sendable (Result<ReplicaPositions, any Error>) -> Void)
}

extension NonBlockingFeed {
    public func replicaPositions(after target: String?, then done: @escaping @Sendable (Result<ReplicaPositions, any Error>) -> Void) {
        done(.success(ReplicaPositions(target: target ?? "", sightings: [])))
    }
}

extension NonBlockingFeed where Self: SchemaStore {
    public func changes(
        application: Application, after cursor: ChangeCursor, limit: Int,
        then done: @escaping @Sendable (Result<ChangePage, any Error>) -> Void
    ) {
        done(Result { try changes(application: application, after: cursor, limit: limit) })
    }

    public func currentChangeCursor(then done: @escaping @Sendable (Result<ChangeCursor, any Error>) -> Void) {
        done(Result { try currentChangeCursor() })
    }
}
