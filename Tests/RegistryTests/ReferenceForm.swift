@testable import Registry

/// The form as the registry built it before shapes were shared, kept as the oracle of
/// `FormDifferentialTests`: every field described afresh with its path as a `String`, the JSON
/// built as a `JSONValue` tree and written by `JSONWriter`. Plain and slow on purpose. It shares
/// the per-field rules (`FieldSchema`, `FieldTraits`, `SchemaResolver`), which the form tests
/// cover one by one; what it checks is the reuse of shapes, the expansion into `FormField`s and
/// the byte writer.
struct ReferenceForm {
    private var resolver: SchemaResolver
    private var activeReferences = ReferenceStack()
    private var fieldCount = 0

    /// The form of `document`, every `$ref` expanded where it is used.
    static func descriptor(of document: SchemaDocument) -> FormDescriptor {
        var form = ReferenceForm(resolver: SchemaResolver(document: document))
        let content = FormSection(
            mode: .fields,
            fields: form.fields(of: document.contentProperties, under: "content-state", required: [], depth: 1).map { field in
                var field = field
                field.isNeededByApp = document.root.requiredNames.containsExactly(field.name)
                return field
            })
        guard let attributeProperties = document.attributesProperties else {
            return FormDescriptor(content: content, attributes: FormSection(mode: .free, fields: []))
        }
        let attributes = FormSection(
            mode: .fields,
            fields: form.fields(
                of: attributeProperties, under: "attributes", required: Set(document.attributesRequired), depth: 1))
        return FormDescriptor(content: content, attributes: attributes)
    }

    /// The form object as the API layer wrote it from the `FormDescriptor`.
    static func text(of document: SchemaDocument, application: String, attributesType: String, version: Int32?) -> String {
        let form = descriptor(of: document)
        var out: JSONObject = ["application": .string(application), "attributes_type": .string(attributesType)]
        if let version { out["version"] = .number(String(version)) }
        out["content"] = json(form.content, maxPayloadBytes: PayloadSizeEstimator.maxContentStateBytes(of: document))
        out["attributes"] = json(form.attributes, maxPayloadBytes: PayloadSizeEstimator.maxAttributesBytes(of: document))
        return JSONWriter.string(.object(out))
    }

    private mutating func fields(of properties: JSONObject, under path: String, required: Set<String>, depth: Int)
        -> [FormField]
    {
        properties.members.map { member in
            field(
                named: member.key, path: "\(path).\(member.key)", schema: member.value,
                isRequired: required.contains(member.key), depth: depth)
        }
    }

    private mutating func field(named name: String, path: String, schema: JSONValue, isRequired: Bool, depth: Int)
        -> FormField
    {
        fieldCount += 1
        var field = FormField(name: name, path: path, label: Humanizer.label(for: name), isRequired: isRequired)
        guard case .object(let object) = schema else { return field }
        guard depth <= FieldDescriber.maxDepth else {
            field.take(FieldTraits(fallbackReason: FieldDescriber.tooDeepReason))
            return field
        }
        var schema = FieldSchema(object)
        let outerReferences = activeReferences.count
        defer { activeReferences.truncate(to: outerReferences) }
        if schema.reference != nil {
            let reason =
                fieldCount <= FieldDescriber.maxFieldsBeforeReferencesStop
                ? SchemaResolver.fallbackReason(
                    resolver.resolve(&schema, active: &activeReferences), of: schema, active: activeReferences)
                : FieldDescriber.fieldCapReason
            if let reason {
                field.take(FieldTraits(annotatedFrom: schema, fallbackReason: reason))
                return field
            }
        }
        if schema.allOf != nil, !schema.isInexpressible, let reason = merge(&schema) {
            field.take(FieldTraits(annotatedFrom: schema, fallbackReason: reason))
            return field
        }
        let traits = FieldTraits(describing: schema)
        field.take(traits)
        if traits.widget == .choice, let cases = schema.cases {
            var choices: [FormChoiceCase] = []
            for choice in cases {
                let payload = self.field(
                    named: choice.key, path: "\(path).\(choice.key)", schema: choice.payload, isRequired: true, depth: depth + 1)
                let isFields = payload.widget == .group
                    || (payload.type == .object && payload.fallbackReason == nil && !payload.isNullable)
                guard isFields else {
                    let problem =
                        payload.fallbackReason.map { "cannot be shown as fields: \($0)" }
                        ?? "holds \(payload.type == .any ? "any value" : payload.type.rawValue), not an object of fields"
                    field = FormField(name: name, path: path, label: Humanizer.label(for: name), isRequired: isRequired)
                    field.take(
                        FieldTraits(
                            annotatedFrom: schema,
                            fallbackReason:
                                "case \(ClientText.quoted(choice.key)) of \(schema.alternativesKeyword ?? "oneOf") \(problem)"))
                    return field
                }
                choices.append(FormChoiceCase(key: choice.key, label: choice.title ?? payload.label, fields: payload.children.fields))
            }
            field.children = .cases(choices)
        } else if traits.widget == .group, case .object(let properties)? = schema.properties {
            let required = Set(schema.required?.arrayValue?.compactMap(\.stringValue) ?? [])
            field.children = .fields(fields(of: properties, under: path, required: required, depth: depth + 1))
        } else if traits.widget == .list {
            let items = schema.hasPrefixItems ? nil : schema.items
            field.children = .item(
                self.field(named: "item", path: "\(path)[]", schema: items ?? true, isRequired: false, depth: depth + 1))
        }
        return field
    }

    /// The `allOf` merged afresh at every use, each branch's references followed as a field's.
    private mutating func merge(_ schema: inout FieldSchema) -> String? {
        guard case .array(let branches)? = schema.allOf, !branches.isEmpty else { return "allOf is not a non-empty list of schemas" }
        if let reason = AllOfMerge.problem(ofPart: schema, named: "the schema beside it") { return reason }
        var parts: [AllOfMerge.Part] = []
        for (index, branch) in branches.enumerated() {
            if branch == .bool(true) { continue }
            guard case .object(let object) = branch else {
                return "allOf branch \(index + 1) is \(JSONWriter.string(branch)), not an object schema"
            }
            var part = FieldSchema(object)
            if part.reference != nil {
                let reason =
                    fieldCount <= FieldDescriber.maxFieldsBeforeReferencesStop
                    ? SchemaResolver.fallbackReason(
                        resolver.resolve(&part, active: &activeReferences), of: part, active: activeReferences)
                    : FieldDescriber.fieldCapReason
                if let reason { return "allOf branch \(index + 1): \(reason)" }
            }
            if part.allOf != nil { return "allOf branch \(index + 1) holds an allOf of its own, which is not merged" }
            parts.append(AllOfMerge.Part(schema: part, name: "branch \(index + 1)"))
        }
        switch AllOfMerge.merge(parts + [AllOfMerge.Part(schema: schema, name: "the schema beside it")]) {
        case .merged(let merged):
            schema.adopt(mergedAllOf: merged)
            return nil
        case .conflict(let reason):
            return reason
        }
    }

    private static func json(_ section: FormSection, maxPayloadBytes: Int?) -> JSONValue {
        var object: JSONObject = ["mode": .string(section.mode.rawValue), "fields": .array(section.fields.map(json))]
        if section.mode == .fields, let maxPayloadBytes { object["max_payload_bytes"] = .number(String(maxPayloadBytes)) }
        return .object(object)
    }

    private static func json(_ field: FormField) -> JSONValue {
        var object: JSONObject = [
            "name": .string(field.name), "path": .string(field.path), "label": .string(field.label),
            "type": .string(field.type.rawValue), "widget": .string(field.widget.rawValue), "required": .bool(field.isRequired),
        ]
        if field.isNeededByApp { object.members.append(("needed_by_app", true)) }
        if let description = field.description { object.members.append(("description", .string(description))) }
        if let defaultValue = field.defaultValue { object.members.append(("default", defaultValue)) }
        if !field.options.isEmpty {
            let options = field.options.map { JSONValue.object(["value": $0.value, "label": .string($0.label)]) }
            object.members.append(("options", .array(options)))
        }
        if field.isNullable { object.members.append(("nullable", true)) }
        if !field.constraints.isEmpty { object.members.append(("constraints", .object(field.constraints))) }
        if let encoding = field.encoding { object.members.append(("encoding", .string(encoding.rawValue))) }
        if let reason = field.fallbackReason { object.members.append(("fallback_reason", .string(reason))) }
        switch field.children {
        case .none: break
        case .fields(let fields): object.members.append(("fields", .array(fields.map(json))))
        case .item(let item): object.members.append(("item", json(item)))
        case .cases(let cases):
            let written = cases.map { choice -> JSONValue in
                ["key": .string(choice.key), "label": .string(choice.label), "fields": .array(choice.fields.map(json))]
            }
            object.members.append(("cases", .array(written)))
        }
        return .object(object)
    }
}

extension FormField {
    fileprivate mutating func take(_ traits: FieldTraits) {
        if let title = traits.title { label = title }
        type = traits.type
        widget = traits.widget
        description = traits.description
        defaultValue = traits.defaultValue
        options = traits.options
        isNullable = traits.isNullable
        constraints = traits.constraints
        encoding = traits.encoding
        fallbackReason = traits.fallbackReason
    }
}
