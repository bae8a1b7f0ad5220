/// An application, addressed by its public code (`XXXXX-XXXXX`) and owned by one account.
public struct Application: Sendable, Equatable {
    public let id: Int64
    public let code: String
    public let name: String
    public let accountID: Int64
    /// RFC 3339 UTC creation time.
    public let created: String
    public init(id: Int64, code: String, name: String, accountID: Int64, created: String) {
        self.id = id
        self.code = code
        self.name = name
        self.accountID = accountID
        self.created = created
    }
}

/// An API token's public record: never the secret, only its id, powers and dates.
public struct TokenRecord: Sendable, Equatable {
    public let id: Int64
    public let accountID: Int64
    public let created: String
    public let revoked: String?
    public let scope: TokenScope
    /// "" when unnamed.
    public let name: String
    /// The applications it is limited to, by code; nil for all of its account's.
    public let applicationCodes: [String]?
    /// RFC 3339 UTC, or nil for never.
    public let expires: String?
    /// `YYYY-MM-DD` (UTC) of the last day it was used, or nil.
    public let lastUsedOn: String?

    public init(
        id: Int64, accountID: Int64, created: String, revoked: String?, scope: TokenScope = .admin, name: String = "",
        applicationCodes: [String]? = nil, expires: String? = nil, lastUsedOn: String? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.created = created
        self.revoked = revoked
        self.scope = scope
        self.name = name
        self.applicationCodes = applicationCodes
        self.expires = expires
        self.lastUsedOn = lastUsedOn
    }
}

/// What a new token may do: its scope, an optional name, the only applications (by code) of
/// its account it may reach (nil: all), and how long it lives (nil: until revoked).
public struct TokenTerms: Sendable, Equatable {
    public static let maxNameBytes = 200

    /// The rule for a token's name, which is also who published a version (`created_by`):
    /// at most `maxNameBytes` bytes without control characters. Throws a 400 naming `field`.
    public static func validateName(_ name: String, field: String = "name") throws(RegistryError) {
        guard name.utf8.count <= maxNameBytes, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidArgument("\(field): at most \(maxNameBytes) bytes without control characters")
        }
    }

    public let scope: TokenScope
    public let name: String
    public let applicationCodes: [String]?
    public let lifetimeSeconds: Int64?

    public init(scope: TokenScope = .admin, name: String = "", applicationCodes: [String]? = nil, lifetimeSeconds: Int64? = nil) {
        self.scope = scope
        self.name = name
        self.applicationCodes = applicationCodes
        self.lifetimeSeconds = lifetimeSeconds
    }
}

/// One published, immutable schema version.
public struct SchemaVersion: Sendable, Equatable {
    public let applicationCode: String
    public let attributesType: String
    public let version: Int32
    /// The published `jsonSchema` text, byte for byte.
    public let jsonSchema: String
    /// RFC 3339 UTC, e.g. `2026-09-01T10:00:00Z`.
    public let created: String
    /// SHA-256 of `jsonSchema`'s UTF-8 bytes, when the store read it along (stores keep it so
    /// that nobody has to hash the text again, e.g. for an `ETag`).
    public let contentHash: [UInt8]?
    /// Who published it (a token's name, or `token <id>`); nil when not recorded.
    public let createdBy: String?
    /// Active, deprecated or disabled; its content never changes.
    public let state: VersionState
    /// Its labels and release notes, which may change after publishing.
    public var metadata: VersionMetadata
    /// The warnings its publish answered (objects as in the publish answer's `warnings`), kept so
    /// that every later reader sees them.
    public var warnings: [JSONValue]

    public init(
        applicationCode: String, attributesType: String, version: Int32, jsonSchema: String, created: String,
        contentHash: [UInt8]? = nil, createdBy: String? = nil, state: VersionState = .active,
        metadata: VersionMetadata = VersionMetadata(), warnings: [JSONValue] = []
    ) {
        self.createdBy = createdBy
        self.state = state
        self.metadata = metadata
        self.warnings = warnings
        self.applicationCode = applicationCode
        self.attributesType = attributesType
        self.version = version
        self.jsonSchema = jsonSchema
        self.created = created
        self.contentHash = contentHash
    }

    /// The same version whether or not its hash was read along; names and texts compare by
    /// their bytes, as the database does. Metadata and warnings are not its identity.
    public static func == (lhs: SchemaVersion, rhs: SchemaVersion) -> Bool {
        lhs.applicationCode.hasSameBytes(as: rhs.applicationCode) && lhs.attributesType.hasSameBytes(as: rhs.attributesType)
            && lhs.version == rhs.version && lhs.jsonSchema.hasSameBytes(as: rhs.jsonSchema) && lhs.created == rhs.created && lhs.createdBy == rhs.createdBy
            && lhs.state == rhs.state
    }
}

/// Which version a publish asks for.
public enum VersionRequest: Sendable, Equatable {
    /// One more than the highest version ever published for the type (deleted ones included).
    case nextFree
    case explicit(Int32)
}

/// Where a list page starts: strictly after this (type, version) in list order
/// (type ascending in byte order, version descending).
public struct ListCursor: Sendable, Equatable {
    public let attributesType: String
    public let version: Int32
    public init(attributesType: String, version: Int32) {
        self.attributesType = attributesType
        self.version = version
    }
}
