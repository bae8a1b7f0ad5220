/// Standard Webhooks signatures: `v1,` and the base64 HMAC-SHA256, under the secret's key, of
/// `<webhook-id>.<webhook-timestamp>.<body>`. During a rotation's grace period the header
/// carries one signature per secret, space-separated, so a receiver holding either verifies.
public enum WebhookSignature {
    public static func sign(key: [UInt8], messageID: String, timestamp: Int64, body: [UInt8]) -> String {
        let signed = Array("\(messageID).\(timestamp).".utf8) + body
        return "v1," + Base64.encode(HMACSHA256.mac(key: key, message: signed))
    }

    /// The `webhook-signature` header for `secrets`, newest first; a secret that is not one
    /// (never written by this registry) signs nothing.
    public static func header(secrets: [String], messageID: String, timestamp: Int64, body: [UInt8]) -> String {
        secrets.compactMap(WebhookSecret.key(of:)).map { sign(key: $0, messageID: messageID, timestamp: timestamp, body: body) }
            .joined(separator: " ")
    }
}
