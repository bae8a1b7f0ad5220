/// What a field schema alone decides about its field once its references are followed: the
/// author's words, the type and the editor. Nested fields are not traits; `FieldDescriber`
/// describes them, because they need the form's limits and the references being expanded.
struct FieldTraits {
    /// The schema's non-empty `title`; without one, each use labels the field from its name.
    var title: String?
    var type = FormFieldType.any
    var widget = FormWidget.json
    var description: String?
    var defaultValue: JSONValue?
    var options: [FormOption] = []
    var isNullable = false
    var constraints = JSONObject()
    var encoding: FormValueEncoding?
    /// Why the field is a raw JSON editor, when the schema says more than one editor can show.
    var fallbackReason: String?

    /// A raw JSON editor, saying why when there is more to say than that the schema allows
    /// anything.
    init(fallbackReason: String? = nil) {
        self.fallbackReason = fallbackReason
    }

    /// The author's own words for the field, which apply even when its type cannot be shown,
    /// on a raw JSON editor.
    init(annotatedFrom schema: borrowing FieldSchema, fallbackReason: String? = nil) {
        self.fallbackReason = fallbackReason
        if case .string(let title)? = schema.title, !title.isEmpty { self.title = title }
        if case .string(let text)? = schema.description { description = text }
        defaultValue = schema.defaultValue
    }

    /// The traits of a schema whose references were all followed. The widget then says which
    /// nested fields the describer adds: a `group`'s properties or a `list`'s item.
    init(describing schema: borrowing FieldSchema) {
        self.init(annotatedFrom: schema)
        if let keyword = schema.inexpressibleKeyword {
            fallbackReason = "\(keyword) makes the value's shape depend on several schemas, which one editor cannot show"
            return
        }
        if schema.cases != nil {
            describeChoice(schema)
            isNullable = schema.nullAlternativeKeyword != nil
            return
        }
        var options: [FormOption]?
        if let values = schema.enumValues {
            guard case .array(let values) = values, !values.isEmpty else {
                fallbackReason = "enum is not a non-empty list of values"
                return
            }
            options = values.map { FormOption(value: $0, label: Humanizer.label(for: $0)) }
        } else if let value = schema.constValue {
            options = [FormOption(value: value, label: Humanizer.label(for: value))]
        } else if let choices = schema.choices {
            options = choices
        }
        guard let (type, isNullable) = FormFieldType.declared(in: schema, options: options?.map(\.value)) else {
            fallbackReason = Self.untypedReason(schema)
            return
        }
        if isNullable, schema.nullAlternativeKeyword?.hasSameBytes(as: "oneOf") == true {
            fallbackReason = "oneOf refuses null here, because both of its schemas allow it"
            return
        }
        self.type = type
        self.isNullable = isNullable || schema.nullAlternativeKeyword != nil
        constraints = schema.formConstraints
        if let options {
            widget = .select
            self.options = options
            return
        }
        switch type {
        case .object:
            guard case .object(let properties)? = schema.properties, !properties.isEmpty else { return }
            widget = .group
        case .array:
            widget = .list
        case .string:
            widget = Self.stringWidget(for: schema)
        case .number, .integer:
            // A Swift `Date` with JSONDecoder defaults travels as seconds since 2001.
            if schema.swiftType == .string("Date") {
                widget = .datetime
                encoding = .appleReferenceSeconds
            } else {
                widget = .number
            }
        case .boolean:
            widget = .toggle
        case .any:
            break
        }
    }

    /// A choice among the cases of an enum with associated values: an object holding one case
    /// key, which nothing written beside the alternatives may change. `FieldDescriber` adds the
    /// cases' fields.
    private mutating func describeChoice(_ schema: borrowing FieldSchema) {
        let keyword = schema.alternativesKeyword ?? "oneOf"
        let beside: String? =
            if let type = schema.type, type != .string("object") { "type \(JSONWriter.string(type))" }
            else if schema.properties != nil { "properties" }
            else if schema.enumValues != nil { "enum" }
            else if schema.constValue != nil { "const" }
            else if schema.allOf != nil { "allOf" }
            else { nil }
        if let beside {
            fallbackReason = "\(keyword) chooses among enum cases, which \(beside) beside it would change"
            return
        }
        type = .object
        widget = .choice
    }

    /// Why no one type could be named; nil when the schema simply allows any value.
    private static func untypedReason(_ schema: borrowing FieldSchema) -> String? {
        switch schema.type {
        case nil: nil
        case .array(let names)?:
            "type allows several types (\(names.map { JSONWriter.string($0) }.joined(separator: ", ")))"
        case let type?:
            "type \(JSONWriter.string(type)) is not one JSON Schema type"
        }
    }

    private static func stringWidget(for schema: borrowing FieldSchema) -> FormWidget {
        switch schema[.format]?.stringValue {
        case "date-time", "date", "time": .datetime
        case "uri": .url
        case "color": .color
        case "textarea": .textarea
        default: (schema[.maxLength]?.doubleValue ?? 0) > 200 ? .textarea : .text
        }
    }
}
