import Registry

/// The Create (and `:validate`) body, read and checked as the "malformed request" step of the
/// check order: required fields, JSON types, both spellings, attributesType and version rules.
/// Schema rules come later, after the application check.
struct PublishRequest: Sendable {
    let applicationCode: String
    let attributesType: String
    let jsonSchema: String
    let version: VersionRequest
    let requireCompatible: Bool
    /// `ifExists: "returnExisting"`: answer with the newest live version when its content is
    /// identical instead of publishing again.
    let returnExisting: Bool
    /// `labels` and `release_notes`, stored with the version.
    let metadata: VersionMetadata

    init(_ body: BodyFields) throws(RegistryError) {
        applicationCode = try body.requiredString(.application)
        attributesType = try body.requiredString(.attributesType)
        try AttributesTypeName.validate(attributesType)
        switch try body.value(.jsonSchema) {
        case nil, .null?:
            throw .invalidArgument("jsonSchema: is required")
        case .string(let text)?:
            guard !text.isEmpty else { throw .invalidArgument("jsonSchema: must not be empty") }
            jsonSchema = text
        case .object?:
            throw .invalidArgument("jsonSchema: must be a string containing the schema's JSON text, not an object")
        case let other?:
            throw .invalidArgument("jsonSchema: must be a string containing the schema's JSON text, not \(other.typeName)")
        }
        switch try body.value(.version) {
        case nil, .null?: version = .nextFree
        case let value?: version = .explicit(try VersionNumber.parse(value))
        }
        requireCompatible = try body.flag(.requireCompatible)
        returnExisting = try PublishIfChanged.returnsExisting(body)
        metadata = try MetadataHandlers.versionMetadata(body)
    }
}
