/// What a publish with `ifExists: returnExisting` did.
public enum FindOrPublish: Sendable, Equatable {
    /// The newest live version already had identical content; nothing was written.
    case existing(SchemaVersion)
    /// Published now; `body` is the response (recorded under the idempotency key, if any).
    case published(SchemaVersion, body: [UInt8])
    /// The idempotency key was used before with the same body: its original response.
    case replayed(body: [UInt8])
}
