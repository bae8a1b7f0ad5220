/// An `Idempotency-Key` on Create: 1–255 visible ASCII characters chosen by the client.
public enum IdempotencyKey {
    public static let maxLength = 255
    /// How long a key replays its original answer.
    public static let lifetimeHours = 24

    /// The key, or a 400 naming the header.
    public static func validate(_ header: String) throws(RegistryError) -> String {
        guard !header.isEmpty, header.utf8.count <= maxLength, header.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidArgument("Idempotency-Key: must be 1 to \(maxLength) visible ASCII characters")
        }
        return header
    }

    /// The 409 for a key reused with another request.
    public static func mismatch(_ key: String) -> RegistryError {
        .alreadyExists(
            "Idempotency-Key \(ClientText.quoted(key)) was already used with a different request body")
    }
}

/// A publish made at most once per key: the caller's account and the application published
/// to (a key is an application's own, so tokens limited to other applications neither see nor
/// claim it), its key, and the SHA-256 of the request body that must match on a retry.
public struct IdempotencyClaim: Sendable {
    public let accountID: Int64
    public let applicationID: Int64
    public let key: String
    public let requestHash: [UInt8]

    public init(accountID: Int64, applicationID: Int64, key: String, requestHash: [UInt8]) {
        self.accountID = accountID
        self.applicationID = applicationID
        self.key = key
        self.requestHash = requestHash
    }

    /// What this request gets when its key was used before: the original response when the
    /// request body is the same, else a 409. The one place a reused key is decided, whether
    /// found before publishing or when claiming the key inside the publish's transaction.
    public func replay(_ stored: StoredResponse) throws(RegistryError) -> [UInt8] {
        guard stored.requestHash == requestHash else { throw IdempotencyKey.mismatch(key) }
        return stored.body
    }
}

/// A Create answered before under a key.
public struct StoredResponse: Sendable, Equatable {
    public let requestHash: [UInt8]
    public let body: [UInt8]

    public init(requestHash: [UInt8], body: [UInt8]) {
        self.requestHash = requestHash
        self.body = body
    }
}

/// What the review of a publication answers: the response body, and what the audit event
/// records about the decision (e.g. the compatibility problems accepted).
public struct PublishAnswer: Sendable {
    public let body: [UInt8]
    public let auditDetails: JSONObject
    /// The answer's warnings, stored with the version.
    public let warnings: [JSONValue]

    public init(body: [UInt8], auditDetails: JSONObject, warnings: [JSONValue] = []) {
        self.body = body
        self.auditDetails = auditDetails
        self.warnings = warnings
    }
}
