/// API tokens: a random secret shown once to its owner, and its SHA-256, the only thing ever
/// stored or compared. The `lar_` prefix lets secret scanners recognise a leaked token.
public enum APIToken {
    public static let prefix = "lar_"

    /// A new secret (32 random bytes from the system's CSPRNG, hex) and its hash.
    public static func generate() -> (secret: String, hash: [UInt8]) {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        let secret = prefix + Hex.encode(bytes)
        return (secret, hash(secret))
    }

    /// The stored form of a presented secret.
    public static func hash(_ secret: String) -> [UInt8] {
        hash(utf8: secret.utf8)
    }

    /// The same, from the secret's UTF-8 bytes as they arrived.
    public static func hash(utf8 secret: some Sequence<UInt8>) -> [UInt8] {
        SHA256.hash(secret)
    }
}
