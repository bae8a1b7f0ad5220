/// A change of any application read from the change feed by a replica that follows it, as soon
/// as it is committed, to forget what its caches hold about the change and to wake the change's
/// waiting readers.
public struct CommittedChange: Sendable, Equatable {
    public let applicationID: Int64
    public let kind: ChangeKind
    /// nil for a change of the application's own policy.
    public let attributesType: String?
    /// nil for policy changes.
    public let version: Int32?

    public init(applicationID: Int64, kind: ChangeKind, attributesType: String?, version: Int32?) {
        self.applicationID = applicationID
        self.kind = kind
        self.attributesType = attributesType
        self.version = version
    }
}
