/// A position in an application's change feed: after the event written by transaction `xid`
/// with id `id`. Events are handed out in (xid, id) order and only once every transaction
/// before them has ended, so everything after a position is still to come.
public struct ChangeCursor: Sendable, Equatable {
    public let xid: UInt64
    public let id: Int64
    public init(xid: UInt64, id: Int64) {
        self.xid = xid
        self.id = id
    }

    /// Before every event.
    public static let start = ChangeCursor(xid: 0, id: 0)
}

/// What changed: a version published or deleted, a compatibility policy set or removed, a
/// version's state changed (deprecated, disabled, restored), a type's `latest` pinned or
/// unpinned, or metadata changed.
public enum ChangeKind: String, Sendable, CaseIterable {
    case published
    case deleted
    case policyChanged = "policy_changed"
    case stateChanged = "state_changed"
    /// `version` is the pinned version, nil when the pin was removed.
    case latestPinned = "latest_pinned"
    /// A type's metadata (no version) or a version's labels or release notes changed.
    case metadataChanged = "metadata_changed"
}

/// One event of the change feed.
public struct ChangeEvent: Sendable, Equatable {
    public let cursor: ChangeCursor
    public let kind: ChangeKind
    /// nil for a change of the application's own policy.
    public let attributesType: String?
    /// nil for policy changes and removed pins.
    public let version: Int32?
    /// RFC 3339 UTC.
    public let at: String

    public init(cursor: ChangeCursor, kind: ChangeKind, attributesType: String?, version: Int32?, at: String) {
        self.cursor = cursor
        self.kind = kind
        self.attributesType = attributesType
        self.version = version
        self.at = at
    }
}

/// One read of the feed.
public struct ChangePage: Sendable, Equatable {
    /// Oldest first; at most the limit asked for.
    public let events: [ChangeEvent]
    /// True when more events may follow at once: the page was full, or events exist that
    /// are committed but not yet final (an older transaction is still running), which a
    /// waiting reader should look for again shortly.
    public let more: Bool
    /// True when committed events wait only for older transactions to end.
    public let pending: Bool

    public init(events: [ChangeEvent], more: Bool, pending: Bool) {
        self.events = events
        self.more = more
        self.pending = pending
    }
}
