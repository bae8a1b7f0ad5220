/// Turns field schemas into `FormField`s for one form. It is stateful because a form must end
/// on any input: it tracks the references being expanded (a schema that contains itself) and
/// how many fields exist so far (definitions that use each other twice per level double the
/// form at every level).
struct FieldDescriber {
    /// Nesting beyond this (reachable only through references) becomes a raw JSON editor.
    static let maxDepth = 64
    /// Once the form has this many fields, further `$ref`s are not expanded. Fields written out
    /// in the text are always described; 64 KB holds fewer than 10,000 of them.
    static let maxFieldsBeforeReferencesStop = 10_000

    private var resolver: SchemaResolver
    /// The references being expanded above the current field, outermost first.
    private var activeReferences: [String] = []
    private var fieldCount = 0

    init(document: SchemaDocument) {
        resolver = SchemaResolver(document: document)
    }

    /// One field per member of a `properties` object, in text order. Paths are joined verbatim
    /// (`parent.child`), even when a name itself holds a dot.
    mutating func fields(of properties: JSONObject, under path: String, required: Set<String>, depth: Int)
        -> [FormField]
    {
        properties.members.map { member in
            field(
                named: member.key, path: "\(path).\(member.key)", schema: member.value,
                isRequired: !required.isEmpty && required.contains(member.key), depth: depth)
        }
    }

    private mutating func field(named name: String, path: String, schema: JSONValue, isRequired: Bool, depth: Int)
        -> FormField
    {
        fieldCount += 1
        var field = FormField(name: name, path: path, label: "", isRequired: isRequired)
        guard depth <= Self.maxDepth, case .object(let object) = schema else {
            field.label = Humanizer.label(for: name)
            return field
        }
        var schema = FieldSchema(object)
        let outerReferences = activeReferences.count
        guard resolveReferences(in: &schema) else {
            field.annotate(from: schema)
            return field
        }
        describe(&field, as: schema, depth: depth)
        activeReferences.removeSubrange(outerReferences...)
        return field
    }

    /// Completes `schema` with the schemas its references lead to, pushing them onto
    /// `activeReferences`; false when they cannot be followed or the form is already too large
    /// to expand more of them.
    private mutating func resolveReferences(in schema: inout FieldSchema) -> Bool {
        guard schema.reference != nil else { return true }
        guard fieldCount <= Self.maxFieldsBeforeReferencesStop else { return false }
        return resolver.resolve(&schema, active: &activeReferences)
    }

    private mutating func describe(_ field: inout FormField, as schema: FieldSchema, depth: Int) {
        field.annotate(from: schema)
        guard !schema.isInexpressible else { return }
        var options: [JSONValue]?
        if let values = schema.enumValues {
            guard case .array(let values) = values, !values.isEmpty else { return }
            options = values
        } else if let value = schema.constValue {
            options = [value]
        }
        guard let (type, isNullable) = FormFieldType.declared(in: schema, options: options) else { return }
        field.type = type
        field.isNullable = isNullable
        field.constraints = schema.formConstraints
        if let options {
            field.widget = .select
            field.options = options.map { FormOption(value: $0, label: Humanizer.label(for: $0)) }
            return
        }
        switch type {
        case .object:
            guard case .object(let properties)? = schema.properties, !properties.isEmpty else { return }
            let required = Set(schema.required?.arrayValue?.compactMap(\.stringValue) ?? [])
            field.widget = .group
            field.children = .fields(fields(of: properties, under: field.path, required: required, depth: depth + 1))
        case .array:
            // A tuple (`items` as an array, or `prefixItems`) has no single item type.
            let items = schema.hasPrefixItems ? nil : schema.items
            field.widget = .list
            let item = self.field(
                named: "item", path: "\(field.path)[]", schema: items ?? true, isRequired: false, depth: depth + 1)
            field.children = .item(item)
        case .string:
            field.widget = Self.stringWidget(for: schema)
        case .number, .integer:
            // A Swift `Date` with JSONDecoder defaults travels as seconds since 2001.
            if schema.swiftType == .string("Date") {
                field.widget = .datetime
                field.encoding = .appleReferenceSeconds
            } else {
                field.widget = .number
            }
        case .boolean:
            field.widget = .toggle
        case .any:
            break
        }
    }

    private static func stringWidget(for schema: FieldSchema) -> FormWidget {
        switch schema[.format]?.stringValue {
        case "date-time", "date", "time": .datetime
        case "uri": .url
        case "color": .color
        case "textarea": .textarea
        default: (schema[.maxLength]?.doubleValue ?? 0) > 200 ? .textarea : .text
        }
    }
}

extension FormField {
    /// Takes the author's own words for the field, which apply even when its type cannot be
    /// shown: the title, else the name made readable.
    fileprivate mutating func annotate(from schema: FieldSchema) {
        if case .string(let title)? = schema.title, !title.isEmpty {
            label = title
        } else {
            label = Humanizer.label(for: name)
        }
        if case .string(let text)? = schema.description { description = text }
        if let value = schema.defaultValue { defaultValue = value }
    }
}
