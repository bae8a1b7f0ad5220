/// The keys a replica opens sealed signing secrets with: the current key
/// (`REGISTRY_WEBHOOK_SECRET_KEY`), which seals every secret written, and the old keys
/// (`REGISTRY_WEBHOOK_SECRET_OLD_KEYS`) that still open secrets sealed before a rotation
/// until the sealer has re-sealed them under the current key.
///
/// A sealed secret names its key by id, so opening picks that key among these (ids compared as
/// UTF-8 bytes); a secret naming an id none of them has is `otherKey`. Like a key, the keyring
/// shows only key ids.
public struct WebhookSecretKeyring: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Old keys one keyring holds at most: a rotation needs one; a few cover rotations that
    /// overlap.
    public static let maxOldKeys = 8

    public let current: WebhookSecretKey
    /// Old keys, as given, without the current key or a repeated one.
    public let old: [WebhookSecretKey]

    /// Old keys equal to the current key, or repeated, are kept once.
    public init(current: WebhookSecretKey, old: [WebhookSecretKey] = []) {
        self.current = current
        var kept: [WebhookSecretKey] = []
        for key in old where !key.bytes.elementsEqual(current.bytes) && !kept.contains(where: { $0.bytes.elementsEqual(key.bytes) }) {
            kept.append(key)
        }
        self.old = kept
    }

    /// The key whose id is `id`: the current key first, then the old keys in order; nil when
    /// none has it.
    public func key(id: String) -> WebhookSecretKey? {
        ([current] + old).first { $0.id.utf8.elementsEqual(id.utf8) }
    }

    /// True when `id` names one of the old keys (and not the current one).
    public func isOld(id: String) -> Bool {
        !current.id.utf8.elementsEqual(id.utf8) && old.contains { $0.id.utf8.elementsEqual(id.utf8) }
    }

    /// Two different keys whose ids are equal (a 1 in 2³² accident): opening could not tell
    /// them apart, so a configuration holding them is refused. nil when every id is distinct.
    public var collidingID: String? {
        let keys = [current] + old
        for (index, key) in keys.enumerated() where keys[..<index].contains(where: { $0.id.utf8.elementsEqual(key.id.utf8) }) {
            return key.id
        }
        return nil
    }

    public var description: String {
        old.isEmpty ? "keyring: current \(current.id)" : "keyring: current \(current.id), old \(old.map(\.id).joined(separator: ", "))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["current": current.id, "old": old.map(\.id)]) }
}
