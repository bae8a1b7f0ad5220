/// The keywords of one field schema that the form reads, gathered in a single pass over its
/// members: a field is judged on some twenty keywords, and looking each one up in the ordered
/// object would scan it twenty times per field.
struct FieldSchema {
    private(set) var reference: JSONValue?
    private(set) var type: JSONValue?
    private(set) var title: JSONValue?
    private(set) var description: JSONValue?
    private(set) var defaultValue: JSONValue?
    private(set) var enumValues: JSONValue?
    private(set) var constValue: JSONValue?
    private(set) var properties: JSONValue?
    private(set) var required: JSONValue?
    private(set) var items: JSONValue?
    private(set) var swiftType: JSONValue?
    /// `prefixItems` is present: the array is a tuple.
    private(set) var hasPrefixItems = false
    /// `additionalProperties` is present and not `true` or `{}`: it limits which names the object
    /// may hold, so the properties of other `allOf` branches would break it.
    private(set) var limitsAdditionalProperties = false
    /// The schemas of `allOf`, merged by `FieldDescriber` into one object where they can be.
    private(set) var allOf: JSONValue?
    /// The first keyword (`oneOf`, `anyOf`, `allOf`, `not`, `patternProperties`, …) that makes
    /// the value's shape depend on several schemas, which one editor cannot show.
    private(set) var inexpressibleKeyword: String?
    /// A `oneOf` or `anyOf` whose every branch is one constant: a choice among values, each
    /// labelled by its branch's `title`.
    private(set) var choices: [FormOption]?
    /// A `oneOf` or `anyOf` written the way Swift's synthesized `Codable` writes an enum with
    /// associated values (`ChoiceCase.cases(in:)`): one case key holding an object of fields.
    private(set) var cases: [ChoiceCase]?
    /// The keyword (`oneOf` or `anyOf`) that gave `choices` or `cases`.
    private(set) var alternativesKeyword: String?
    /// The keyword (`oneOf` or `anyOf`) of an optional written as two alternatives, one schema
    /// and `{"type":"null"}` (Swift's `T?` of a `$ref`'d type, pydantic's `Optional[T]`): the
    /// field is that schema, completed into this one, and it may also be null.
    private(set) var nullAlternativeKeyword: String?
    /// In the order of the schema text.
    private var constraints: [(constraint: FormConstraint, value: JSONValue)] = []

    private enum Keyword {
        case reference, type, title, description, defaultValue, enumValues, constValue, properties, required, items
        case swiftType, prefixItems, additionalProperties, allOf, inexpressible, alternatives
        case constraint(FormConstraint)
    }

    /// The keyword a member key names; the common ones come first.
    private static func keyword(_ key: String) -> Keyword? {
        switch key {
        case "type": .type
        case "title": .title
        case "description": .description
        case "enum": .enumValues
        case "properties": .properties
        case "items": .items
        case "$ref": .reference
        case "required": .required
        case "default": .defaultValue
        case "const": .constValue
        case "x-swift-type": .swiftType
        case "prefixItems": .prefixItems
        case "oneOf", "anyOf": .alternatives
        case "allOf": .allOf
        case "additionalProperties": .additionalProperties
        case "not", "patternProperties", "if", "dependentSchemas", "propertyNames", "contains",
            "unevaluatedProperties", "unevaluatedItems", "$dynamicRef":
            .inexpressible
        default: FormConstraint(keyword: key).map(Keyword.constraint)
        }
    }

    /// Reads `object`; as with `JSONObject`'s subscript, the first of repeated keys counts.
    init(_ object: JSONObject) {
        var nonNullSchema: JSONObject?
        for (key, value) in object.members {
            switch Self.keyword(key) {
            case nil: break
            case .reference?: Self.keep(&reference, value)
            case .type?: Self.keep(&type, value)
            case .title?: Self.keep(&title, value)
            case .description?: Self.keep(&description, value)
            case .defaultValue?: Self.keep(&defaultValue, value)
            case .enumValues?: Self.keep(&enumValues, value)
            case .constValue?: Self.keep(&constValue, value)
            case .properties?: Self.keep(&properties, value)
            case .required?: Self.keep(&required, value)
            case .items?: Self.keep(&items, value)
            case .swiftType?: Self.keep(&swiftType, value)
            case .prefixItems?: hasPrefixItems = true
            case .additionalProperties?:
                limitsAdditionalProperties = limitsAdditionalProperties || (value != .bool(true) && value != .object([:]))
            case .allOf?: Self.keep(&allOf, value)
            case .inexpressible?: inexpressibleKeyword = inexpressibleKeyword ?? key
            case .alternatives?:
                if alternativesKeyword == nil, nullAlternativeKeyword == nil, let schema = Self.nonNullAlternative(value) {
                    nullAlternativeKeyword = key
                    nonNullSchema = schema
                } else if alternativesKeyword == nil, let options = Self.constantChoices(value) {
                    choices = options
                    alternativesKeyword = key
                } else if alternativesKeyword == nil, let found = ChoiceCase.cases(in: value) {
                    cases = found
                    alternativesKeyword = key
                } else {
                    inexpressibleKeyword = inexpressibleKeyword ?? key
                }
            case .constraint(let constraint)?:
                if self[constraint] == nil { constraints.append((constraint, value)) }
            }
        }
        guard let nonNullSchema, let keyword = nullAlternativeKeyword else { return }
        if object.members.allSatisfy({ $0.key.hasSameBytes(as: keyword) || Self.wordKeys.containsExactly($0.key) }) {
            complete(with: FieldSchema(nonNullSchema))
        } else {
            // Anything else beside the two alternatives must hold as well (a `type` would
            // refuse the null): the value's shape depends on several schemas.
            inexpressibleKeyword = inexpressibleKeyword ?? keyword
            nullAlternativeKeyword = nil
        }
    }

    /// Keywords that say something about a value without limiting it.
    private static let wordKeys = ["title", "description", "default", "examples", "$comment", "deprecated"]

    /// The schema beside `{"type":"null"}` in a list of exactly those two; nil for any other list.
    private static func nonNullAlternative(_ value: JSONValue) -> JSONObject? {
        guard case .array(let branches) = value, branches.count == 2 else { return nil }
        let nullIndex = branches.firstIndex(where: isNullSchema)
        guard let nullIndex, case .object(let other) = branches[1 - nullIndex], !isNullSchema(branches[1 - nullIndex])
        else { return nil }
        return other
    }

    /// `{"type":"null"}`, perhaps with words about it.
    private static func isNullSchema(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value, object["type"] == .string("null") else { return false }
        return object.members.allSatisfy { nullBranchKeys.containsExactly($0.key) }
    }

    private static let nullBranchKeys = ["type", "title", "description"]

    /// The options of `[{"const": v, "title": t}, …]`: branches that hold one constant and
    /// nothing but words about it; nil for any other list.
    private static func constantChoices(_ value: JSONValue) -> [FormOption]? {
        guard case .array(let branches) = value, !branches.isEmpty else { return nil }
        var options: [FormOption] = []
        for branch in branches {
            guard case .object(let object) = branch, let constant = object["const"],
                object.members.allSatisfy({ Self.constantBranchKeys.containsExactly($0.key) })
            else { return nil }
            let title = object["title"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            options.append(FormOption(value: constant, label: title ?? Humanizer.label(for: constant)))
        }
        return options
    }

    private static let constantBranchKeys = ["const", "title", "description"]

    /// Whether the shape depends on several schemas at once.
    var isInexpressible: Bool { inexpressibleKeyword != nil }

    /// The first keyword of this schema that an `allOf` merge of object properties cannot
    /// carry into the merged object: one that constrains something other than the object's
    /// properties, or limits the names the other schemas may add. (`allOf` itself is the
    /// merge's own business.)
    var unmergeableKeyword: String? {
        if let keyword = inexpressibleKeyword { return keyword }
        if let keyword = alternativesKeyword ?? nullAlternativeKeyword { return keyword }
        if enumValues != nil { return "enum" }
        if constValue != nil { return "const" }
        if items != nil { return "items" }
        if hasPrefixItems { return "prefixItems" }
        if limitsAdditionalProperties { return "additionalProperties" }
        return constraints.first.map { String(describing: $0.constraint) }
    }

    /// This schema with `allOf` replaced by the object it merges into: `merged`'s properties and
    /// required names, with the words written here kept.
    mutating func adopt(mergedAllOf merged: JSONObject) {
        allOf = nil
        type = merged["type"]
        properties = merged["properties"]
        required = merged["required"]
    }
    private static func keep(_ slot: inout JSONValue?, _ value: JSONValue) {
        if slot == nil { slot = value }
    }

    /// The value of one constraint keyword.
    subscript(constraint: FormConstraint) -> JSONValue? {
        constraints.first { $0.constraint.rawValue == constraint.rawValue }?.value
    }

    /// The constraints under their form keys, in the form's order; empty when there are none.
    var formConstraints: JSONObject {
        let ordered =
            constraints.count < 2 ? constraints : constraints.sorted { $0.constraint.rawValue < $1.constraint.rawValue }
        return JSONObject(ordered.map { (key: $0.constraint.formKey, value: $0.value) })
    }

    /// Completes this schema, written beside a `$ref`, with the referenced `target`: keywords
    /// given here win, the target supplies the rest, and the target's own `$ref` is next to follow.
    mutating func complete(with target: FieldSchema) {
        reference = target.reference
        type = type ?? target.type
        title = title ?? target.title
        description = description ?? target.description
        defaultValue = defaultValue ?? target.defaultValue
        enumValues = enumValues ?? target.enumValues
        constValue = constValue ?? target.constValue
        properties = properties ?? target.properties
        required = required ?? target.required
        items = items ?? target.items
        swiftType = swiftType ?? target.swiftType
        hasPrefixItems = hasPrefixItems || target.hasPrefixItems
        limitsAdditionalProperties = limitsAdditionalProperties || target.limitsAdditionalProperties
        allOf = allOf ?? target.allOf
        inexpressibleKeyword = inexpressibleKeyword ?? target.inexpressibleKeyword
        if alternativesKeyword == nil {
            choices = target.choices
            cases = target.cases
            alternativesKeyword = target.alternativesKeyword
        }
        constraints += target.constraints.filter { self[$0.constraint] == nil }
    }
}
