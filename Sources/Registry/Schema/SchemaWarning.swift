/// A finding about a submitted schema or its type name that publishing accepts: Create and the
/// dry run list it beside the result, so that a person sees it before clients depend on the
/// version. It never refuses anything.
public struct SchemaWarning: Sendable, Equatable {
    /// Where the finding applies: `attributesType`, or a `jsonSchema` path.
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
