/// Which version `latest` names for a type: the pinned one when a pin names a live version that
/// is not disabled; else the newest active version; else, when only deprecated versions are
/// left, the newest deprecated one. Never a disabled version.
public struct LatestCandidates: Sendable, Equatable {
    /// The pinned version when it is live and not disabled.
    public let pinned: Int32?
    public let newestActive: Int32?
    public let newestDeprecated: Int32?

    public init(pinned: Int32?, newestActive: Int32?, newestDeprecated: Int32?) {
        self.pinned = pinned
        self.newestActive = newestActive
        self.newestDeprecated = newestDeprecated
    }

    /// The version `latest` answers, nil when the type has no version that is not disabled.
    public var latest: Int32? { pinned ?? newestActive ?? newestDeprecated }
}
