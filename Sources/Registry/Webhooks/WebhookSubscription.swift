/// One webhook subscription of an application, as every route shows it. Never holds a secret:
/// the secret leaves the store only when issued (`IssuedWebhook`) and for signing.
public struct WebhookSubscription: Sendable, Equatable {
    public let id: Int64
    public let applicationID: Int64
    public let url: String
    public let events: [ChangeKind]
    /// Only types whose name starts with these bytes; "" for every event.
    public let typePrefix: String
    public let description: String
    public let enabled: Bool
    public let disabledReason: String?
    /// The old secret still signs beside the new one until then (RFC 3339 UTC); nil after.
    public let previousSecretUntil: String?
    /// Failures in a row of the event at the head of its queue.
    public let failures: Int
    /// RFC 3339 UTC.
    public let nextAttemptAt: String
    public let created: String
    public let updated: String

    public init(
        id: Int64, applicationID: Int64, url: String, events: [ChangeKind], typePrefix: String, description: String, enabled: Bool,
        disabledReason: String?, previousSecretUntil: String?, failures: Int, nextAttemptAt: String, created: String,
        updated: String
    ) {
        self.id = id
        self.applicationID = applicationID
        self.url = url
        self.events = events
        self.typePrefix = typePrefix
        self.description = description
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.previousSecretUntil = previousSecretUntil
        self.failures = failures
        self.nextAttemptAt = nextAttemptAt
        self.created = created
        self.updated = updated
    }
}

/// What a subscription wants; every field is given when one is created, and those given
/// replace the stored ones on an update.
public struct WebhookSettings: Sendable, Equatable {
    public var url: String?
    public var events: [ChangeKind]?
    public var typePrefix: String?
    public var description: String?
    public var enabled: Bool?

    public init(url: String? = nil, events: [ChangeKind]? = nil, typePrefix: String? = nil, description: String? = nil, enabled: Bool? = nil) {
        self.url = url
        self.events = events
        self.typePrefix = typePrefix
        self.description = description
        self.enabled = enabled
    }

    public static let maxDescriptionBytes = 1000
    public static let maxTypePrefixBytes = 200
}

/// A subscription with the secret just issued for it, shown once.
public struct IssuedWebhook: Sendable, Equatable {
    public let subscription: WebhookSubscription
    public let secret: String

    public init(subscription: WebhookSubscription, secret: String) {
        self.subscription = subscription
        self.secret = secret
    }
}

/// One delivery attempt in a subscription's log.
public struct WebhookAttempt: Sendable, Equatable {
    public let id: Int64
    public let at: String
    public let messageID: String
    public let eventType: String
    /// 0 when no response arrived.
    public let status: Int
    public let succeeded: Bool
    public let latencyMilliseconds: Int
    public let error: String
    /// The first bytes of the response body, as text.
    public let responseHead: String

    public init(
        id: Int64, at: String, messageID: String, eventType: String, status: Int, succeeded: Bool, latencyMilliseconds: Int,
        error: String, responseHead: String
    ) {
        self.id = id
        self.at = at
        self.messageID = messageID
        self.eventType = eventType
        self.status = status
        self.succeeded = succeeded
        self.latencyMilliseconds = latencyMilliseconds
        self.error = error
        self.responseHead = responseHead
    }

    /// Attempts kept per subscription; older ones are pruned.
    public static let keptPerSubscription = 1000
}

/// What to send again.
public enum WebhookRedelivery: Sendable, Equatable {
    /// The one event at this feed position.
    case event(ChangeCursor)
    /// Every matching event after this position: the subscription's position moves back to it.
    case since(ChangeCursor)
}
