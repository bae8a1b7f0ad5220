/// Walks a value beside the plain structure of its schema (`properties`, `additionalProperties`,
/// `items`, `prefixItems`, `$ref`, the branch of a `oneOf`/`anyOf` that names the value's keys)
/// for what the device does and JSON Schema does not say: a Swift `Date` field takes RFC 3339
/// text, which travels as seconds since 2001 (converted here); ActivityKit ignores keys its type
/// does not declare (a warning); and the decoders of some Swift types (`x-swift-type`) refuse
/// values no keyword describes. Whether the value is valid is otherwise the compiled schema's
/// verdict on the converted value.
struct ValueWalk {
    let document: SchemaDocument
    var problems: [PushProblem] = []
    /// Rendered paths of date text that is no date, where the schema's own complaint about a
    /// string in a number field would only repeat the problem.
    var unreadableDates: Set<ExactName> = []

    /// The value as the device should receive it, at `path` (rendered with `prefix`).
    mutating func convert(_ value: JSONValue, against schema: JSONValue?, at path: [JSONPathComponent], prefix: String)
        -> JSONValue
    {
        guard let schema, case .object(var object) = document.dereference(schema).schema else { return value }
        if let branch = Self.branch(of: object, naming: value, in: document) { object = branch }
        let swiftType = object["x-swift-type"]?.stringValue
        if swiftType == "Date" { return convertDate(value, at: path, prefix: prefix) }
        switch value {
        case .object(let members):
            return .object(convertMembers(of: members, against: object, at: path, prefix: prefix))
        case .array(let elements):
            let prefixItems = object["prefixItems"]?.arrayValue ?? []
            let items = object["items"].flatMap { $0.objectValue == nil ? nil : $0 }
            let converted = elements.enumerated().map { i, element in
                convert(element, against: i < prefixItems.count ? prefixItems[i] : items, at: path + [.index(i)], prefix: prefix)
            }
            if let swiftType, SwiftDecoding.ranges.containsExactly(swiftType) {
                report(SwiftDecoding.rangeProblem(converted), at: path, prefix: prefix)
            }
            return .array(converted)
        case .number(let lexeme):
            report(swiftType.flatMap { SwiftDecoding.numberProblem(lexeme, swiftType: $0) }, at: path, prefix: prefix)
            return value
        case .string(let text):
            if swiftType == "URL" { report(SwiftDecoding.urlProblem(text), at: path, prefix: prefix) }
            return value
        default:
            return value
        }
    }

    private mutating func report(_ problem: String?, at path: [JSONPathComponent], prefix: String) {
        if let problem { problems.append(.error(JSONPathComponent.render(path, prefix: prefix), problem)) }
    }

    /// The branch of a `oneOf` or `anyOf` that declares every key of an object value (how Swift
    /// encodes an enum case with associated values: `{"case": {…}}`), so dates inside it are
    /// converted; nil when the schema has no such keyword or no one branch fits.
    private static func branch(of schema: JSONObject, naming value: JSONValue, in document: SchemaDocument) -> JSONObject? {
        guard case .object(let members) = value, !members.isEmpty else { return nil }
        for keyword in ["oneOf", "anyOf"] {
            guard let branches = schema[keyword]?.arrayValue else { continue }
            let fitting = branches.compactMap { branch -> JSONObject? in
                guard case .object(let object) = document.dereference(branch).schema,
                    let properties = object["properties"]?.objectValue,
                    members.keys.allSatisfy({ properties[$0] != nil })
                else { return nil }
                return object
            }
            if fitting.count == 1 { return fitting[0] }
        }
        return nil
    }

    private mutating func convertMembers(
        of object: JSONObject, against schema: JSONObject, at path: [JSONPathComponent], prefix: String
    ) -> JSONObject {
        let properties = schema["properties"]?.objectValue
        let additional = schema["additionalProperties"]
        // Keys a type does not declare are ignored on the device; where the schema itself
        // refuses them (additionalProperties false) or matches them by pattern, it speaks.
        let warnsOnUndeclared = properties != nil && additional == nil && schema["patternProperties"] == nil
            && schema["unevaluatedProperties"] == nil
        var converted = JSONObject()
        for member in object.members {
            let memberPath = path + [.key(member.key)]
            var value = member.value
            if let declared = properties?[member.key] {
                value = convert(value, against: declared, at: memberPath, prefix: prefix)
            } else if let additional, case .object = additional {
                value = convert(value, against: additional, at: memberPath, prefix: prefix)
            } else if warnsOnUndeclared {
                problems.append(
                    .warning(JSONPathComponent.render(memberPath, prefix: prefix), "is not declared in the schema; ActivityKit ignores it"))
            }
            converted.members.append((member.key, value))
        }
        return converted
    }

    /// A Swift `Date` field takes a number (seconds since 2001) or RFC 3339 text, converted here.
    private mutating func convertDate(_ value: JSONValue, at path: [JSONPathComponent], prefix: String) -> JSONValue {
        guard case .string(let text) = value else { return value }
        if let converted = SwiftDateValue.number(fromRFC3339: text) { return converted }
        let rendered = JSONPathComponent.render(path, prefix: prefix)
        unreadableDates.insert(ExactName(rendered))
        problems.append(
            .error(
                rendered,
                "must be a date: an RFC 3339 date-time such as 2026-09-01T10:00:00Z, or a number of seconds since 2001-01-01T00:00:00Z"
            ))
        return value
    }
}
