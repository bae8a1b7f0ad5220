/// The kinds of change the audit trail records; the strings are the `audit_events.action`
/// values the database accepts.
public enum AuditAction: String, Sendable, CaseIterable {
    case publish
    case delete
    case policyChange = "policy_change"
    case tokenIssue = "token_issue"
    case tokenRevoke = "token_revoke"
    case tokenExpiryChange = "token_expiry_change"
    case applicationCreate = "application_create"
    case `import`
    case stateChange = "state_change"
    case latestPin = "latest_pin"
    case metadataChange = "metadata_change"
    case webhookCreate = "webhook_create"
    case webhookUpdate = "webhook_update"
    case webhookDelete = "webhook_delete"
    case webhookRotateSecret = "webhook_rotate_secret"
    case webhookRedeliver = "webhook_redeliver"
    /// A subscription disabled by its worker after its retries ran out.
    case webhookDisable = "webhook_disable"

    /// The action named `text`, or a 400 naming `field`.
    public static func parse(_ text: String, field: String) throws(RegistryError) -> AuditAction {
        guard let action = AuditAction(exactly: text) else {
            throw .invalidArgument("\(field): must be one of " + allCases.map(\.rawValue).joined(separator: ", "))
        }
        return action
    }
}

/// Who makes a change: an API token (with the request id of the call) or the admin CLI.
public struct AuditActor: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case token
        case cli
    }

    public let kind: Kind
    public let tokenID: Int64?
    public let tokenName: String
    public let requestID: String?

    public init(kind: Kind, tokenID: Int64?, tokenName: String, requestID: String?) {
        self.kind = kind
        self.tokenID = tokenID
        self.tokenName = tokenName
        self.requestID = requestID
    }

    /// The admin command line, which has no token.
    public static let cli = AuditActor(kind: .cli, tokenID: nil, tokenName: "", requestID: nil)

    /// What a version published by this actor shows as `created_by`: the token's name, or
    /// `token <id>` when it has none; nil for the CLI.
    public var createdBy: String? {
        guard kind == .token, let tokenID else { return nil }
        return tokenName.isEmpty ? "token \(tokenID)" : tokenName
    }
}

/// One change to record, written in the same transaction as the change itself.
public struct AuditRecord: Sendable {
    public let accountID: Int64
    public let actor: AuditActor
    public let action: AuditAction
    public let applicationID: Int64?
    public let attributesType: String?
    public let version: Int32?
    /// What the change decided or accepted (e.g. compatibility problems accepted under warn).
    public let details: JSONObject

    public init(
        accountID: Int64, actor: AuditActor, action: AuditAction, applicationID: Int64? = nil, attributesType: String? = nil,
        version: Int32? = nil, details: JSONObject = [:]
    ) {
        self.accountID = accountID
        self.actor = actor
        self.action = action
        self.applicationID = applicationID
        self.attributesType = attributesType
        self.version = version
        self.details = details
    }
}

/// One recorded change, as read back.
public struct AuditEvent: Sendable, Equatable {
    public let id: Int64
    /// RFC 3339 UTC with microseconds.
    public let at: String
    public let accountID: Int64
    public let actor: AuditActor.Kind
    public let tokenID: Int64?
    public let tokenName: String
    public let action: AuditAction
    public let applicationCode: String?
    public let attributesType: String?
    public let version: Int32?
    public let requestID: String?
    public let details: JSONValue
    /// The size of `details` as the store sent it, the measure a page's byte budget counts
    /// (`AuditQuery.pageBytes`); 0 when not read from a store.
    public let detailsBytes: Int

    public init(
        id: Int64, at: String, accountID: Int64, actor: AuditActor.Kind, tokenID: Int64?, tokenName: String,
        action: AuditAction, applicationCode: String?, attributesType: String?, version: Int32?, requestID: String?,
        details: JSONValue, detailsBytes: Int = 0
    ) {
        self.id = id
        self.at = at
        self.accountID = accountID
        self.actor = actor
        self.tokenID = tokenID
        self.tokenName = tokenName
        self.action = action
        self.applicationCode = applicationCode
        self.attributesType = attributesType
        self.version = version
        self.requestID = requestID
        self.details = details
        self.detailsBytes = detailsBytes
    }

    /// The event as one JSON object (the API's item and the CLI's line).
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "id": .number(String(id)), "at": .string(at), "account_id": .number(String(accountID)),
            "actor": .string(actor.rawValue), "token_name": .string(tokenName), "action": .string(action.rawValue),
            "details": details,
        ]
        object["token_id"] = tokenID.map { .number(String($0)) } ?? .null
        object["application"] = applicationCode.map { .string($0) } ?? .null
        object["attributes_type"] = attributesType.map { .string($0) } ?? .null
        object["version"] = version.map { .number(String($0)) } ?? .null
        object["request_id"] = requestID.map { .string($0) } ?? .null
        return .object(object)
    }
}

/// Which audit events to read: newest first from an application (the API), or oldest first
/// over an account or everything (the CLI). `cursor` is the id of the last event already seen.
public struct AuditQuery: Sendable, Equatable {
    public enum Order: Sendable { case newestFirst, oldestFirst }

    public var order: Order
    public var accountID: Int64?
    public var applicationID: Int64?
    public var attributesType: String?
    public var action: AuditAction?
    /// Unix seconds, inclusive lower and exclusive upper bound of `at`.
    public var since: Double?
    public var until: Double?
    public var cursor: Int64?
    public var limit: Int
    /// Newest first only: the details bytes (`AuditEvent.detailsBytes`) a page may hold. The
    /// store returns the events that start within it, so the last one may cross it: the caller
    /// ends its page before the first event that crosses. nil: no budget.
    public var pageBytes: Int?

    /// The largest `details` one event shows: events written before reports were bounded may
    /// hold tens of megabytes; a larger one is replaced by `{"omitted": …, "bytes": N}`.
    public static let maxEventDetailsBytes = 512 << 10

    public init(
        order: Order, accountID: Int64? = nil, applicationID: Int64? = nil, attributesType: String? = nil,
        action: AuditAction? = nil, since: Double? = nil, until: Double? = nil, cursor: Int64? = nil, limit: Int,
        pageBytes: Int? = nil
    ) {
        self.order = order
        self.accountID = accountID
        self.applicationID = applicationID
        self.attributesType = attributesType
        self.action = action
        self.since = since
        self.until = until
        self.cursor = cursor
        self.limit = limit
        self.pageBytes = pageBytes
    }
}

/// RFC 3339 times given as filters (`2026-09-01T10:00:00Z`, offsets and fractions allowed).
public enum RFC3339Time {
    /// Unix seconds, or a 400 naming `field`.
    public static func unixSeconds(_ text: String, field: String) throws(RegistryError) -> Double {
        guard case .number(let lexeme)? = SwiftDateValue.number(fromRFC3339: text), let sinceReference = Double(lexeme) else {
            throw .invalidArgument("\(field): must be an RFC 3339 date-time such as 2026-09-01T10:00:00Z")
        }
        return sinceReference + Double(SwiftDateValue.referenceDateUnixSeconds)
    }
}
