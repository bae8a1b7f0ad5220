/// Walks a value and its schema side by side, collecting problems and returning the value as
/// the device should receive it (Swift `Date` text converted to numbers). One walk does both so
/// the conversion follows exactly the schema reading the check used.
struct ValueWalk {
    let document: SchemaDocument
    var problems: [PushProblem] = []

    /// Checks `value` against a schema that may be a `$ref`.
    mutating func check(_ value: JSONValue, against schema: JSONValue, at path: String) -> JSONValue {
        switch document.dereference(schema).schema {
        case .unreadable(let reason):
            problems.append(.warning(path, "not checked: \(reason)"))
            return value
        case .object(let schema):
            return check(value, against: schema, at: path)
        }
    }

    /// Checks the members of an object: declared ones against their schemas, a dictionary's
    /// (`additionalProperties` schema) against that, and the rest as warnings, since ActivityKit
    /// ignores keys its type does not declare.
    mutating func checkMembers(
        of object: JSONObject, properties: JSONObject?, additionalProperties: JSONValue?, at path: String
    ) -> JSONObject {
        let warnsOnUndeclared = properties != nil || additionalProperties == .bool(false)
        var checked = JSONObject()
        for member in object.members {
            let memberPath = JSONPathComponent.render([.key(member.key)], prefix: path)
            var value = member.value
            if let schema = properties?[member.key] {
                value = check(value, against: schema, at: memberPath)
            } else if let additionalProperties, case .object = additionalProperties {
                value = check(value, against: additionalProperties, at: memberPath)
            } else if warnsOnUndeclared {
                problems.append(.warning(memberPath, "is not declared in the schema; ActivityKit ignores it"))
            }
            checked.members.append((member.key, value))
        }
        return checked
    }

    /// The `names` that `object` lacks. `emptyCounts` also counts `""` and `null` as missing, as
    /// a start does for `attributes.required`.
    static func missing(_ names: [String], in object: JSONObject, emptyCounts: Bool = false) -> [String] {
        names.filter { name in
            guard let value = object[name] else { return true }
            return emptyCounts && (value == .string("") || value.isNull)
        }
    }

    private mutating func check(_ value: JSONValue, against schema: JSONObject, at path: String) -> JSONValue {
        if schema.isSwiftDate { return checkDate(value, against: schema, at: path) }
        guard hasAllowedType(value, schema: schema, at: path), isAllowedValue(value, schema: schema, at: path) else {
            return value
        }
        switch value {
        case .string(let string):
            checkString(string, against: schema, at: path)
        case .number(let lexeme):
            checkNumber(lexeme, against: schema, at: path)
        case .array(let elements):
            checkCount(elements.count, against: schema, at: path)
            guard let items = schema["items"], case .object = items else { return value }
            return .array(elements.enumerated().map { check($1, against: items, at: "\(path)[\($0)]") })
        case .object(let object):
            for name in Self.missing(schema.requiredNames, in: object) {
                problems.append(.error(JSONPathComponent.render([.key(name)], prefix: path), "is required"))
            }
            return .object(
                checkMembers(
                    of: object, properties: schema["properties"]?.objectValue,
                    additionalProperties: schema["additionalProperties"], at: path))
        case .null, .bool:
            break
        }
        return value
    }

    /// A Swift `Date` field takes a number (seconds since 2001) or RFC 3339 text, converted here.
    private mutating func checkDate(_ value: JSONValue, against schema: JSONObject, at path: String) -> JSONValue {
        switch value {
        case .number(let lexeme):
            checkNumber(lexeme, against: schema, at: path)
            return value
        case .string(let text):
            guard let converted = SwiftDateValue.number(fromRFC3339: text), case .number(let lexeme) = converted else {
                problems.append(
                    .error(
                        path,
                        "must be a date: an RFC 3339 date-time such as 2026-09-01T10:00:00Z, or a number of seconds since 2001-01-01T00:00:00Z"
                    ))
                return value
            }
            checkNumber(lexeme, against: schema, at: path)
            return converted
        case .null where schema.allowsNull:
            return value
        case .null:
            problems.append(.error(path, "must not be null: the field is a Date that is not nullable"))
            return value
        case .bool, .array, .object:
            problems.append(.error(path, "must be a date (an RFC 3339 string or a number), not \(value.typeName)"))
            return value
        }
    }

    private mutating func hasAllowedType(_ value: JSONValue, schema: JSONObject, at path: String) -> Bool {
        let known = (schema.schemaTypes ?? []).filter(Self.typeNames.contains)
        guard !known.isEmpty, !known.contains(where: { value.isInstance(ofSchemaType: $0) }) else { return true }
        let expected = known.joined(separator: " or ")
        if value.isNull {
            problems.append(.error(path, "must not be null: the schema's type (\(expected)) does not include null"))
        } else if case .number(let lexeme) = value {
            problems.append(.error(path, "must be \(expected), not the number \(lexeme)"))
        } else {
            problems.append(.error(path, "must be \(expected), not \(value.typeName)"))
        }
        return false
    }

    private static let typeNames: Set = ["null", "boolean", "integer", "number", "string", "array", "object"]

    private mutating func isAllowedValue(_ value: JSONValue, schema: JSONObject, at path: String) -> Bool {
        if case .array(let options) = schema["enum"], !options.contains(where: { $0.isSameJSON(as: value) }) {
            let listed = options.map { JSONWriter.string($0) }.joined(separator: ", ")
            problems.append(.error(path, "must be one of \(listed)"))
            return false
        }
        if let constant = schema["const"], !constant.isSameJSON(as: value) {
            problems.append(.error(path, "must be \(JSONWriter.string(constant))"))
            return false
        }
        return true
    }
}

extension JSONValue {
    /// JSON Schema's instance types: an integer is any number with a zero fraction (`3.0` too).
    fileprivate func isInstance(ofSchemaType type: String) -> Bool {
        switch (type, self) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string),
            ("array", .array), ("object", .object):
            true
        case ("integer", .number):
            isIntegral
        default:
            false
        }
    }
}
