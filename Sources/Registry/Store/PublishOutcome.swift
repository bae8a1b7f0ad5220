/// What one publish did.
public enum PublishOutcome: Sendable, Equatable {
    /// Published now; `body` is the response (recorded under the idempotency key, if any).
    case published(SchemaVersion, body: [UInt8])
    /// Asked to return an identical newest live version, and there was one: nothing was written.
    case existing(SchemaVersion)
    /// The idempotency key was used before with the same body: its original response.
    case replayed(body: [UInt8])
}
