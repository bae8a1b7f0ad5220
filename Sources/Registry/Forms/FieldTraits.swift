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

    /// A raw JSON editor with nothing said about it: a schema that is not an object, or one
    /// nested too deep.
    init() {}

    /// The author's own words for the field, which apply even when its type cannot be shown,
    /// on a raw JSON editor.
    init(annotatedFrom schema: borrowing FieldSchema) {
        if case .string(let title)? = schema.title, !title.isEmpty { self.title = title }
        if case .string(let text)? = schema.description { description = text }
        defaultValue = schema.defaultValue
    }

    /// The traits of a schema whose references were all followed. The widget then says which
    /// nested fields the describer adds: a `group`'s properties or a `list`'s item.
    init(describing schema: borrowing FieldSchema) {
        self.init(annotatedFrom: schema)
        guard !schema.isInexpressible else { return }
        var options: [JSONValue]?
        if let values = schema.enumValues {
            guard case .array(let values) = values, !values.isEmpty else { return }
            options = values
        } else if let value = schema.constValue {
            options = [value]
        }
        guard let (type, isNullable) = FormFieldType.declared(in: schema, options: options) else { return }
        self.type = type
        self.isNullable = isNullable
        constraints = schema.formConstraints
        if let options {
            widget = .select
            self.options = options.map { FormOption(value: $0, label: Humanizer.label(for: $0)) }
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
