/// One attributes type in the type index: enough for a picker or a search box, never the
/// schema texts.
public struct TypeSummary: Sendable, Equatable {
    /// The compatibility policy in force for the type: its own, else its application's, else the
    /// built-in default (`backward_transitive`, `warn`, oldest supported version 1).
    public struct Policy: Sendable, Equatable {
        public let mode: String
        public let enforce: String
        public let oldestSupportedVersion: Int32

        public init(mode: String, enforce: String, oldestSupportedVersion: Int32) {
            self.mode = mode
            self.enforce = enforce
            self.oldestSupportedVersion = oldestSupportedVersion
        }
    }

    public let attributesType: String
    /// How many versions are live (deleted ones not counted); always at least 1.
    public let liveVersions: Int64
    public let newestVersion: Int32
    /// RFC 3339 UTC creation time of the newest live version.
    public let newestCreated: String
    public let policy: Policy
    /// The version `latest` is pinned to, nil when none is.
    public let latestPin: Int32?
    /// How many of the live versions are deprecated, and how many disabled.
    public let deprecatedVersions: Int64
    public let disabledVersions: Int64
    /// Its description, owner and labels (no links: a summary is for lists); empty when unset.
    public var metadata: TypeMetadata

    public init(
        attributesType: String, liveVersions: Int64, newestVersion: Int32, newestCreated: String, policy: Policy,
        latestPin: Int32? = nil, deprecatedVersions: Int64 = 0, disabledVersions: Int64 = 0, metadata: TypeMetadata = TypeMetadata()
    ) {
        self.latestPin = latestPin
        self.deprecatedVersions = deprecatedVersions
        self.disabledVersions = disabledVersions
        self.metadata = metadata
        self.attributesType = attributesType
        self.liveVersions = liveVersions
        self.newestVersion = newestVersion
        self.newestCreated = newestCreated
        self.policy = policy
    }
}

/// Which names a type-index page holds: those starting with `prefix` (by bytes), after `after`.
public struct TypeFilter: Sendable, Equatable {
    public let prefix: String?
    public let after: String?

    public init(prefix: String?, after: String?) {
        self.prefix = prefix
        self.after = after
    }

    /// The smallest string above every string that starts with `prefix`, in byte order of
    /// UTF-8 (which is Unicode scalar order): the prefix with its last scalar raised by one,
    /// dropping trailing scalars that cannot be raised. Nil when there is none (no upper bound).
    /// A range scan `>= prefix AND < bound` then needs no `LIKE` and no escaping.
    public static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let raised = Unicode.Scalar(next) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                view.append(raised)
                return String(view)
            }
        }
        return nil
    }
}
