/// A change of any application read from the change feed by a replica that follows it, to
/// forget what its caches hold about the change and to wake the change's waiting readers.
public struct CommittedChange: Sendable, Equatable {
    public let applicationID: Int64
    public let kind: ChangeKind
    /// nil for a change of the application's own policy.
    public let attributesType: String?
    /// nil for policy changes.
    public let version: Int32?
    /// True once the feed hands the change out (every older transaction has ended), so its
    /// waiting readers can read it now. A change is also reported once before that, as soon as
    /// it is committed, so caches never wait for an unrelated older transaction.
    public let isFinal: Bool

    public init(applicationID: Int64, kind: ChangeKind, attributesType: String?, version: Int32?, isFinal: Bool) {
        self.applicationID = applicationID
        self.kind = kind
        self.attributesType = attributesType
        self.version = version
        self.isFinal = isFinal
    }
}
