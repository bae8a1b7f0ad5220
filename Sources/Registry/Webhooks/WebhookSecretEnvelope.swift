/// How a webhook signing secret is stored. While the operator set no key, as issued
/// (`whsec_…`); with one, sealed in a versioned envelope:
///
///     v1:<key id>:<base64 of nonce ‖ ciphertext ‖ tag>
///
/// AES-256-GCM under the operator's key, with a nonce of 12 random bytes drawn for each seal
/// (so sealing one secret twice gives two texts) and the envelope's head `v1:<key id>:` as
/// associated data, so that changing its version or key id fails authentication like changing
/// any other byte. The version leaves room for another format beside this one; the key id lets
/// a keyring (`WebhookSecretKeyring`) open secrets sealed with an old key while new ones are
/// sealed with the current one, and tells "sealed with another key" apart from "damaged".
///
/// Secrets are opened only where a delivery is signed; nothing here ever puts a secret, sealed
/// or not, into an error.
public enum WebhookSecretEnvelope {
    public static let prefix = "v1:"

    /// The sealed form of `secret` under `key`.
    public static func seal(_ secret: String, with key: WebhookSecretKey) -> String {
        var rng = SystemRandomNumberGenerator()
        let nonce = (0..<AES256GCM.nonceByteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        let head = head(keyID: key.id)
        let sealed = AES256GCM.seal(Array(secret.utf8), key: key.bytes, nonce: nonce, authenticating: Array(head.utf8))
        return head + Base64.encode(nonce + sealed)
    }

    /// What the database stores for a secret just issued: sealed when there is a key, as issued
    /// when there is none.
    public static func stored(_ secret: String, key: WebhookSecretKey?) -> String {
        key.map { seal(secret, with: $0) } ?? secret
    }

    /// True for the sealed form (whatever key sealed it); false for a secret stored as issued.
    public static func isSealed(_ stored: String) -> Bool {
        stored.utf8.starts(with: prefix.utf8)
    }

    /// The id of the key a sealed secret names; nil for anything not in the sealed form.
    public static func keyID(of stored: String) -> String? {
        parts(of: stored)?.keyID
    }

    /// The secret as issued: opened with `key` when sealed, as it is when stored as issued.
    /// Throws, naming only key ids, when it is sealed and there is no key or another key, or when
    /// it does not open (damaged, or written by something other than this registry).
    public static func open(_ stored: String, with key: WebhookSecretKey?) throws(WebhookSecretUnreadable) -> String {
        try open(stored, keyring: key.map { WebhookSecretKeyring(current: $0) })
    }

    /// The secret as issued: opened, when sealed, with the key of `keyring` whose id the
    /// envelope names (the current key or an old one), as it is when stored as issued. Throws,
    /// naming only key ids, when it is sealed and there is no keyring or no key with that id, or
    /// when it does not open under that key.
    public static func open(_ stored: String, keyring: WebhookSecretKeyring?) throws(WebhookSecretUnreadable) -> String {
        guard isSealed(stored) else {
            guard WebhookSecret.key(of: stored) != nil else { throw .notASecret }
            return stored
        }
        guard let parts = parts(of: stored) else { throw .damaged(keyID: nil) }
        guard let keyring else { throw .noKey(sealedWith: parts.keyID) }
        guard let key = keyring.key(id: parts.keyID) else {
            throw .otherKey(sealedWith: parts.keyID, configured: keyring.current.id, old: keyring.old.map(\.id))
        }
        guard let body = Base64.decode(parts.body), body.count > AES256GCM.nonceByteCount + AES256GCM.tagByteCount,
            let plaintext = AES256GCM.open(
                Array(body.dropFirst(AES256GCM.nonceByteCount)), key: key.bytes, nonce: Array(body.prefix(AES256GCM.nonceByteCount)),
                authenticating: Array(head(keyID: parts.keyID).utf8))
        else { throw .damaged(keyID: parts.keyID) }
        guard let secret = String(validating: plaintext, as: UTF8.self), WebhookSecret.key(of: secret) != nil else {
            throw .damaged(keyID: parts.keyID)
        }
        return secret
    }

    /// `v1:<key id>:`, which the seal authenticates with the secret.
    private static func head(keyID: String) -> String { prefix + keyID + ":" }

    /// The key id (8 lowercase hex digits) and the base64 body of a sealed secret.
    private static func parts(of stored: String) -> (keyID: String, body: String)? {
        let bytes = Array(stored.utf8)
        let start = prefix.utf8.count
        guard isSealed(stored), bytes.count > start + 9, bytes[start + 8] == UInt8(ascii: ":") else { return nil }
        let keyID = bytes[start..<(start + 8)]
        guard keyID.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        return (String(decoding: keyID, as: UTF8.self), String(decoding: bytes[(start + 9)...], as: UTF8.self))
    }
}
