/// The JSON Schema dialects the registry compiles: a document's root `$schema` names one, and a
/// document without `$schema` is 2020-12. Any other `$schema` (a draft this registry does not
/// implement, or a custom metaschema it would have to fetch) is refused.
public enum SchemaDialect: Sendable, Equatable {
    case draft2020_12
    case draft7

    /// The dialect a `$schema` URI names; an empty fragment is allowed, as both drafts write it.
    init?(uri: String) {
        var text = uri
        if text.hasByteSuffix("#") { text.removeLast() }
        switch text {
        case _ where text.hasSameBytes(as: "https://json-schema.org/draft/2020-12/schema"): self = .draft2020_12
        case _ where text.hasSameBytes(as: "http://json-schema.org/draft-07/schema"),
            _ where text.hasSameBytes(as: "https://json-schema.org/draft-07/schema"):
            self = .draft7
        default: return nil
        }
    }

    /// The dialect as messages name it.
    public var name: String {
        switch self {
        case .draft2020_12: "JSON Schema 2020-12"
        case .draft7: "JSON Schema draft 7"
        }
    }

    /// Every keyword of the dialect's core, applicator, unevaluated, validation, format and
    /// meta-data vocabularies: anything else in a schema object is unknown (and ignored).
    var keywords: Set<ExactName> {
        switch self {
        case .draft2020_12: Self.keywords2020
        case .draft7: Self.keywords7
        }
    }

    private static let shared = [
        "$schema", "$id", "$ref", "$comment", "definitions",
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
        "items", "contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
        "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
        "maxProperties", "minProperties", "required",
        "title", "description", "default", "readOnly", "writeOnly", "examples",
        "format", "contentEncoding", "contentMediaType",
    ]

    private static let keywords2020 = Set(
        (shared + [
            "$anchor", "$dynamicAnchor", "$dynamicRef", "$defs", "$vocabulary",
            "dependentSchemas", "prefixItems", "unevaluatedItems", "unevaluatedProperties",
            "maxContains", "minContains", "dependentRequired", "deprecated", "contentSchema", "dependencies",
        ]).map(ExactName.init))

    private static let keywords7 = Set((shared + ["additionalItems", "dependencies"]).map(ExactName.init))

    /// The known keyword nearest to `keyword` when it is plausibly a misspelling of it: at most
    /// two edits (a transposition is one) and fewer than half its length.
    func suggestion(for keyword: String) -> String? {
        let typed = Array(keyword.unicodeScalars)
        var best: (name: String, distance: Int)?
        for known in keywords.map(\.text).sorted() {
            let distance = EditDistance.between(typed, Array(known.unicodeScalars))
            if distance <= 2, distance * 2 < typed.count, distance < (best?.distance ?? .max) {
                best = (known, distance)
            }
        }
        return best?.name
    }

}
