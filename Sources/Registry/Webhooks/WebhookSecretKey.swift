/// The operator's key that seals webhook signing secrets at rest (`REGISTRY_WEBHOOK_SECRET_KEY`):
/// 32 bytes for AES-256-GCM. Every replica of one database needs the same key.
///
/// The key never shows itself: its description, debug description and reflection name only its
/// `id`, so a key interpolated into a log line or dumped by a test prints nothing secret.
public struct WebhookSecretKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public static let byteCount = AES256GCM.keyByteCount

    let bytes: [UInt8]
    /// Names the key in every secret sealed with it and in log lines, so a secret sealed with
    /// another key is told apart from a damaged one: 8 hex digits of an HMAC of a fixed label
    /// under the key, which reveals nothing about the key.
    public let id: String

    /// nil unless `bytes` are exactly `byteCount` long.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
        id = Hex.encode(HMACSHA256.mac(key: bytes, message: Array("registry webhook secret key id".utf8)).prefix(4))
    }

    /// The key `text` spells as canonical padded base64 (`openssl rand -base64 32`); nil for
    /// anything else.
    public init?(base64 text: String) {
        guard let bytes = Base64.decode(text) else { return nil }
        self.init(bytes: bytes)
    }

    /// A new random key from the system's CSPRNG.
    public static func generate() -> WebhookSecretKey {
        var rng = SystemRandomNumberGenerator()
        return WebhookSecretKey(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) })!
    }

    public var description: String { "webhook secret key \(id)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
