/// A version just published, with the earlier live schema texts it must be compared with,
/// read by the same statement that inserted it (so no version committed before the publish
/// began is missed, and publishing stays one round trip).
public struct Publication: Sendable, Equatable {
    public let schema: SchemaVersion
    /// Each distinct live text of the type's earlier versions, except the published text
    /// itself: an identical text is compatible and has no findings, so it needs no comparison.
    public let earlier: [EarlierSchema]

    public init(schema: SchemaVersion, earlier: [EarlierSchema]) {
        self.schema = schema
        self.earlier = earlier
    }
}

/// One distinct live schema text of a type, at its oldest live version. The SHA-256 is the
/// database's (`schema_sha256`), so documents parsed from the text can be cached by it.
public struct EarlierSchema: Sendable, Equatable {
    public let version: Int32
    /// SHA-256 of the text's UTF-8 bytes.
    public let contentHash: [UInt8]
    public let jsonSchema: String

    public init(version: Int32, contentHash: [UInt8], jsonSchema: String) {
        self.version = version
        self.contentHash = contentHash
        self.jsonSchema = jsonSchema
    }
}
