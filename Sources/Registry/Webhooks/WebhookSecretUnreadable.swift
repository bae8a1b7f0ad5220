/// Why a stored signing secret cannot sign: the subscription's deliveries fail with this as
/// their logged reason (in the delivery log and the service's log) until an operator fixes it.
/// It names key ids only, never a secret or a key.
public enum WebhookSecretUnreadable: Error, Sendable, Equatable, CustomStringConvertible {
    /// Sealed, and this replica has no `REGISTRY_WEBHOOK_SECRET_KEY`.
    case noKey(sealedWith: String)
    /// Sealed with a key other than this replica's current key and its old keys (ids).
    case otherKey(sealedWith: String, configured: String, old: [String] = [])
    /// In the sealed form but it does not open under the key it names: changed in the database,
    /// or the key id of another key happens to match.
    case damaged(keyID: String?)
    /// Neither sealed nor a `whsec_` secret: never written by this registry.
    case notASecret

    public var description: String {
        switch self {
        case .noKey(let sealed):
            "the signing secret is sealed with key \(sealed), and this replica has no REGISTRY_WEBHOOK_SECRET_KEY"
        case .otherKey(let sealed, let configured, let old) where old.isEmpty:
            "the signing secret is sealed with key \(sealed), not with this replica's REGISTRY_WEBHOOK_SECRET_KEY (key \(configured))"
        case .otherKey(let sealed, let configured, let old):
            "the signing secret is sealed with key \(sealed), not with this replica's REGISTRY_WEBHOOK_SECRET_KEY (key \(configured)) nor its REGISTRY_WEBHOOK_SECRET_OLD_KEYS (keys \(old.joined(separator: ", ")))"
        case .damaged(let keyID?):
            "the signing secret sealed with key \(keyID) does not open: it was changed in the database"
        case .damaged(nil):
            "the signing secret is not a sealed secret this registry wrote"
        case .notASecret:
            "the stored signing secret is not one this registry wrote"
        }
    }
}
