/// `type` values below the root that are not JSON Schema type names. The schema rules accept
/// them, and the form shows a field whose type it cannot name as "any JSON value", so a typo
/// (`"type": "strng"`) would silently turn a text field into a raw JSON editor. Create and the
/// dry run warn instead, naming the nearest type name when one is close.
///
/// Only schema positions are read (`properties`, `items`, `allOf`, `$defs`, …): a property called
/// `type`, or a `type` key inside `default`, `enum` or `const` values, is data, not a keyword.
/// The walk is linear in the document, and a suggestion is looked for only in short names.
public enum SchemaTypeNames {
    /// JSON Schema's seven type names, in the order messages list them.
    public static let names = ["string", "number", "integer", "boolean", "object", "array", "null"]
    /// Warnings listed one by one; past this many, one more warning counts the rest.
    public static let maxListed = 20

    /// One warning per unknown name (path `jsonSchema.….type`, or `….type[1]` in a list), and
    /// one per `type` that is neither a name nor a list, in text order.
    public static func warnings(in document: SchemaDocument) -> [SchemaWarning] {
        var walk = Walk()
        walk.visit(.object(document.root), isRoot: true)
        guard walk.unlisted > 0 else { return walk.found }
        let rest = walk.unlisted
        return walk.found + [
            SchemaWarning(
                path: "jsonSchema",
                message: "\(rest) more \"type\" \(rest == 1 ? "value is" : "values are") not JSON Schema type names")
        ]
    }

    /// Whether `name` is one of the seven, compared by Unicode scalars.
    public static func isTypeName(_ name: String) -> Bool {
        names.containsExactly(name)
    }

    /// The type name `name` was most likely meant to be, or nil when none is close: the same
    /// word in other letter case (`String`), a common name from programming languages (`int`,
    /// `bool`, `float`), or a name within two edits (one for the four-letter names, so `foo`
    /// does not suggest `bool`).
    public static func suggestion(for name: String) -> String? {
        guard name.unicodeScalars.count <= maxSuggestedScalars else { return nil }
        let folded = name.unicodeScalars.map { scalar in
            (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0x20)! : scalar
        }
        if let alias = aliases[ExactName(String(String.UnicodeScalarView(folded)))] { return alias }
        var best: (name: String, distance: Int)?
        for candidate in names {
            let distance = EditDistance.between(folded, Array(candidate.unicodeScalars))
            let allowed = candidate.utf8.count <= 4 ? 1 : 2
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Longer names are never within two edits of a seven-letter name: no work is spent on them.
    static let maxSuggestedScalars = 9

    /// Names other languages and schema dialects use for the same types.
    private static let aliases: [ExactName: String] = Dictionary(
        uniqueKeysWithValues: [
            ("int", "integer"), ("long", "integer"), ("bool", "boolean"), ("float", "number"), ("double", "number"),
            ("decimal", "number"), ("str", "string"), ("list", "array"), ("dict", "object"), ("map", "object"),
        ].map { (ExactName($0.0), $0.1) })


    /// What a schema keyword's value holds.
    private enum Keyword {
        /// The `type` keyword.
        case type
        /// A schema, or a list of schemas (`items` takes either).
        case schemas
        /// An object whose member values are schemas (`properties`, `$defs`, …).
        case schemaMap
    }

    /// Keywords of JSON Schema (drafts 4 to 2020-12) whose values are schemas, keyed by scalars.
    private static let keywords: [ExactName: Keyword] = {
        var keywords: [ExactName: Keyword] = [ExactName("type"): .type]
        for name in [
            "items", "additionalItems", "prefixItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties",
            "contains", "propertyNames", "not", "if", "then", "else", "allOf", "anyOf", "oneOf", "contentSchema",
        ] {
            keywords[ExactName(name)] = .schemas
        }
        for name in ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"] {
            keywords[ExactName(name)] = .schemaMap
        }
        return keywords
    }()

    /// The root's own `attributes` section is a schema of the attribute fields.
    private static let attributes = ExactName("attributes")

    /// The walk's state: the path to the current value as components (rendered only for a
    /// listed warning) and what was found.
    private struct Walk {
        var path: [JSONPathComponent] = []
        var found: [SchemaWarning] = []
        var unlisted = 0

        mutating func visit(_ value: JSONValue, isRoot: Bool = false) {
            guard case .object(let schema) = value else { return }
            for member in schema.members {
                let key = ExactName(member.key)
                let keyword = isRoot && key == SchemaTypeNames.attributes ? .schemas : SchemaTypeNames.keywords[key]
                guard let keyword else { continue }
                path.append(.key(member.key))
                switch keyword {
                case .type:
                    // The root's `"type": "object"` is a rule of its own; anything else there is a 400.
                    if !isRoot { check(member.value) }
                case .schemas:
                    if case .array(let schemas) = member.value {
                        for (index, subschema) in schemas.enumerated() {
                            path.append(.index(index))
                            visit(subschema)
                            path.removeLast()
                        }
                    } else {
                        visit(member.value)
                    }
                case .schemaMap:
                    for entry in member.value.objectValue?.members ?? [] {
                        path.append(.key(entry.key))
                        visit(entry.value)
                        path.removeLast()
                    }
                }
                path.removeLast()
            }
        }

        /// Warns about a `type` value at `path`: an unknown name, each unknown name of a list,
        /// or a value that is neither.
        private mutating func check(_ type: JSONValue) {
            switch type {
            case .string(let name):
                if !SchemaTypeNames.isTypeName(name) { report(Self.unknown(name)) }
            case .array(let entries):
                for (index, entry) in entries.enumerated() {
                    if case .string(let name) = entry, SchemaTypeNames.isTypeName(name) { continue }
                    path.append(.index(index))
                    report(entry.stringValue.map(Self.unknown) ?? "\(entry.typeName) is not a type name")
                    path.removeLast()
                }
            case .null, .bool, .number, .object:
                report("must be a type name or a list of them, not \(type.typeName)")
            }
        }

        private mutating func report(_ message: @autoclosure () -> String) {
            guard found.count < SchemaTypeNames.maxListed else {
                unlisted += 1
                return
            }
            found.append(SchemaWarning(path: JSONPathComponent.render(path, prefix: "jsonSchema"), message: message()))
        }

        private static func unknown(_ name: String) -> String {
            let quoted = ClientText.quoted(name)
            if let suggestion = SchemaTypeNames.suggestion(for: name) {
                return "\(quoted) is not a JSON Schema type name; did you mean \"\(suggestion)\"?"
            }
            return "\(quoted) is not a JSON Schema type name (\(SchemaTypeNames.names.joined(separator: ", ")))"
        }
    }
}
