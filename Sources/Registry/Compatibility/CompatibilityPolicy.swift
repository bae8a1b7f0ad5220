/// How strictly a type's new versions are held to what apps built against earlier versions can
/// decode. Set per application (the default of its types) and per type (overriding it).
public struct CompatibilityPolicy: Sendable, Equatable {
    /// Which earlier versions a new one is compared with.
    public enum Mode: String, Sendable, CaseIterable {
        /// Not compared at all.
        case none
        /// Only the newest live version: apps are expected to update before the next change.
        case backward
        /// Every live version from the floor up: apps built against any of them stay installed.
        case backwardTransitive = "backward_transitive"
    }

    /// What an incompatible publish does.
    public enum Enforcement: String, Sendable, CaseIterable {
        /// Publish and report the problems.
        case warn
        /// Refuse (409) and write nothing.
        case reject
    }

    public var mode: Mode
    public var enforce: Enforcement
    /// The floor: versions below it are for apps nobody supports any more and are not compared.
    public var oldestSupportedVersion: Int32

    public init(mode: Mode, enforce: Enforcement, oldestSupportedVersion: Int32 = 1) {
        self.mode = mode
        self.enforce = enforce
        self.oldestSupportedVersion = oldestSupportedVersion
    }

    /// What every type has until someone sets a policy: the behaviour before policies existed,
    /// so existing clients see no change.
    public static let builtIn = CompatibilityPolicy(mode: .backwardTransitive, enforce: .warn, oldestSupportedVersion: 1)

    /// A publish under this policy may be refused, so it must be reviewed before it commits.
    public var needsReview: Bool { enforce == .reject && mode != .none }

    /// `{"mode": …, "enforce": …, "oldest_supported_version": n}`.
    public var jsonValue: JSONObject {
        [
            "mode": .string(mode.rawValue), "enforce": .string(enforce.rawValue),
            "oldest_supported_version": .number(String(oldestSupportedVersion)),
        ]
    }
}

/// The policy that applies to a type, and where it was set, so a reader knows which one to
/// change.
public struct EffectivePolicy: Sendable, Equatable {
    /// Where a policy comes from, most specific first.
    public enum Source: String, Sendable {
        /// Set on the type itself.
        case type
        /// Set on the application, the default of its types.
        case application
        /// Nobody set one: `CompatibilityPolicy.builtIn`.
        case builtIn = "default"
    }

    public let policy: CompatibilityPolicy
    public let source: Source
    /// RFC 3339 UTC time of the last change; nil for the built-in default.
    public let updated: String?

    public init(policy: CompatibilityPolicy, source: Source, updated: String? = nil) {
        self.policy = policy
        self.source = source
        self.updated = updated
    }
}
