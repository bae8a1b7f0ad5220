// The wire shape of forms.md. Keys come in a fixed order (name, path, label, type, widget,
// required, then the optional ones) so responses are stable byte for byte.

extension FormDescriptor {
    /// `{"content": …, "attributes": …}`. An object rather than a value so the API layer can put
    /// `application`, `attributes_type` and `version` in front of these members.
    public var jsonObject: JSONObject {
        ["content": content.jsonValue, "attributes": attributes.jsonValue]
    }
}

extension FormSection {
    /// `{"mode": "fields"|"free", "fields": [...]}`.
    public var jsonValue: JSONValue {
        ["mode": .string(mode.rawValue), "fields": .array(fields.map(\.jsonValue))]
    }
}

extension FormField {
    /// One field as forms.md shows it; optional keys appear only when they say something.
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "name": .string(name),
            "path": .string(path),
            "label": .string(label),
            "type": .string(type.rawValue),
            "widget": .string(widget.rawValue),
            "required": .bool(isRequired),
        ]
        if let description { object.members.append(("description", .string(description))) }
        if let defaultValue { object.members.append(("default", defaultValue)) }
        if !options.isEmpty {
            let options = options.map { JSONValue.object(["value": $0.value, "label": .string($0.label)]) }
            object.members.append(("options", .array(options)))
        }
        if isNullable { object.members.append(("nullable", true)) }
        if !constraints.isEmpty { object.members.append(("constraints", .object(constraints))) }
        if let encoding { object.members.append(("encoding", .string(encoding.rawValue))) }
        switch children {
        case .none: break
        case .fields(let fields): object.members.append(("fields", .array(fields.map(\.jsonValue))))
        case .item(let item): object.members.append(("item", item.jsonValue))
        }
        return .object(object)
    }
}
