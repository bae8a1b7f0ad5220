/// A version just published, with what it must be compared with, read by the same statement
/// that inserted it (so no version or policy committed before the publish began is missed, and
/// publishing stays one round trip).
public struct Publication: Sendable, Equatable {
    public let schema: SchemaVersion
    public let basis: ComparisonBasis

    public init(schema: SchemaVersion, basis: ComparisonBasis) {
        self.schema = schema
        self.basis = basis
    }

    /// Shorthand for `basis.earlier`.
    public var earlier: [EarlierSchema] { basis.earlier }
}

/// What a new version of a type is compared with, read in one snapshot: the type's policy,
/// its newest live version below the new one, and the distinct earlier texts the policy asks
/// for. Disabled versions are withdrawn and are none of these; deprecated ones count.
public struct ComparisonBasis: Sendable, Equatable {
    public let policy: EffectivePolicy
    /// The newest live version below the new one, to compare with; nil when there is none or
    /// the mode is `none`.
    public let newest: EarlierSchema?
    /// The number of the newest live version below the new one in any mode, for the warning
    /// about an explicit version far beyond it; nil when there is none.
    public let newestVersion: Int32?
    /// Under `backward_transitive`: each distinct live text from the floor up, at its oldest live
    /// version, oldest first; at most the caller's limit of them, the newest ones. A publish
    /// leaves out its own text (an identical text has no findings). Empty under other modes.
    public let earlier: [EarlierSchema]
    /// More distinct texts existed than the limit allowed.
    public let limitReached: Bool

    public init(
        policy: EffectivePolicy, newest: EarlierSchema?, earlier: [EarlierSchema], limitReached: Bool, newestVersion: Int32? = nil
    ) {
        self.policy = policy
        self.newest = newest
        self.newestVersion = newestVersion ?? newest?.version
        self.earlier = earlier
        self.limitReached = limitReached
    }
}

/// One distinct live schema text of a type, at its oldest live version. The SHA-256 is the
/// database's (`schema_sha256`), so what is derived from the text can be cached by it.
public struct EarlierSchema: Sendable, Equatable {
    public let version: Int32
    /// SHA-256 of the text's UTF-8 bytes.
    public let contentHash: [UInt8]
    /// The text; nil when the caller said it did not need it (`Comparison.needsText`).
    public let jsonSchema: String?

    public init(version: Int32, contentHash: [UInt8], jsonSchema: String?) {
        self.version = version
        self.contentHash = contentHash
        self.jsonSchema = jsonSchema
    }
}

/// How much of a type's earlier versions a publish or dry run reads: at most `limit` distinct
/// texts, newest first, and the text itself only of those `needsText` asks for, so a caller
/// that keeps what it derives from texts by hash does not receive megabytes it already knows.
public struct Comparison: Sendable {
    public let limit: Int
    /// The caller already knows its review may refuse the publish (`requireCompatible`, or a
    /// rejecting policy it just met), so the store need not find out from the policy first.
    public let mayBeRefused: Bool
    public let needsText: @Sendable (_ contentHash: [UInt8]) -> Bool

    public init(
        limit: Int, mayBeRefused: Bool = false, needsText: @escaping @Sendable (_ contentHash: [UInt8]) -> Bool = { _ in true }
    ) {
        self.limit = limit
        self.mayBeRefused = mayBeRefused
        self.needsText = needsText
    }
}
