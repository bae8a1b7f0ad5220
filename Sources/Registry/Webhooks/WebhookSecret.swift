/// A webhook's signing secret as the Standard Webhooks specification spells it: `whsec_` and
/// the base64 of the key. The key is 24 random bytes from the system's CSPRNG; the registry
/// stores the secret (it must compute HMACs with it) and shows it only when it is issued.
public enum WebhookSecret {
    public static let prefix = "whsec_"
    public static let keyBytes = 24

    public static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        return prefix + Base64.encode((0..<keyBytes).map { _ in UInt8.random(in: .min ... .max, using: &rng) })
    }

    /// The HMAC key of a secret: the bytes its base64 part spells; nil when it is not one.
    public static func key(of secret: String) -> [UInt8]? {
        guard secret.hasPrefix(prefix) else { return nil }
        return Base64.decode(String(secret.utf8.dropFirst(prefix.utf8.count))!)
    }
}
