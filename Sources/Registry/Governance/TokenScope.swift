/// What a token may do. Each scope includes the ones below it: `read` (every GET, `:check`,
/// `:preview`, `:validate`) < `publish` (+ publishing) < `admin` (+ deleting, policies, audit).
public enum TokenScope: String, Sendable, CaseIterable, Comparable {
    case read
    case publish
    case admin

    private var rank: Int {
        switch self {
        case .read: 0
        case .publish: 1
        case .admin: 2
        }
    }

    public static func < (lhs: TokenScope, rhs: TokenScope) -> Bool { lhs.rank < rhs.rank }
}

/// What a request needs from its token: a scope, and the words that name the activity in a
/// refusal ("this token has scope read; publishing needs publish").
public struct Permission: Sendable, Equatable {
    public let scope: TokenScope
    public let activity: String

    public init(_ scope: TokenScope, _ activity: String) {
        self.scope = scope
        self.activity = activity
    }

    /// The 403 for `token`, or nil when its scope suffices.
    public func refusal(for token: TokenGrant) -> RegistryError? {
        guard token.scope < scope else { return nil }
        return .permissionDenied("this token has scope \(token.scope.rawValue); \(activity) needs \(scope.rawValue)")
    }
}

/// A live token as the API sees it after lookup: whose it is and what it may do. Never the
/// secret.
public struct TokenGrant: Sendable, Equatable {
    public let id: Int64
    public let accountID: Int64
    public let scope: TokenScope
    /// "" when the token has no name.
    public let name: String
    /// The only applications it may reach, by id and by code (both in code order); nil when it
    /// may reach every application of its account.
    public let applicationIDs: [Int64]?
    public let applicationCodes: [String]?
    /// Unix seconds and RFC 3339 UTC text of the expiry; nil for a token that never expires.
    public let expiresAt: Double?
    public let expires: String?

    public init(
        id: Int64, accountID: Int64, scope: TokenScope, name: String, applicationIDs: [Int64]?, applicationCodes: [String]?,
        expiresAt: Double?, expires: String?
    ) {
        self.id = id
        self.accountID = accountID
        self.scope = scope
        self.name = name
        self.applicationIDs = applicationIDs
        self.applicationCodes = applicationCodes
        self.expiresAt = expiresAt
        self.expires = expires
    }

    /// Checked on every use, also when the grant comes from a cache that outlives the expiry.
    public func isExpired(now: Double) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= now
    }

    /// Whether the token may reach `application` (of its own account).
    public func reaches(_ application: Application) -> Bool {
        application.accountID == accountID && (applicationIDs?.contains(application.id) ?? true)
    }
}
