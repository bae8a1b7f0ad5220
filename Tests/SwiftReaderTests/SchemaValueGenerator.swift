import Registry
import Testing

/// A JSON value generated from a schema, and why: `valid…` categories are values the schema
/// describes, the others near-misses that an app's `JSONDecoder` may refuse.
struct GeneratedValue {
    var value: JSONValue
    var category: String
}

/// Generates values from the schemas `schema-from-swift` writes, for the differential test
/// against `JSONDecoder`: for each schema its valid values (the first one canonical) and its
/// near-misses, each tagged with a category. It reads only the keywords the reader emits.
struct SchemaValueGenerator {
    let definitions: JSONObject

    static let nullForNonOptional = "null for non-optional"

    /// The valid values of `schema`; the first is the canonical one used inside other values.
    func valid(_ schema: JSONObject) -> [GeneratedValue] {
        let schema = resolved(schema)
        if let wrapped = Self.nullableWrapped(schema) {
            return valid(wrapped) + [GeneratedValue(value: .null, category: "valid: null for optional")]
        }
        if case .array(let choices)? = schema["oneOf"] { return keyedValid(choices.compactMap(\.objectValue)) }
        if case .array(let values)? = schema["enum"] { return values.map { GeneratedValue(value: $0, category: "valid") } }
        switch schema["type"]?.stringValue {
        case "integer"?: return integerValid(schema)
        case "number"?: return numberValid(schema)
        case "string"?: return stringValid(schema)
        case "boolean"?: return [.init(value: true, category: "valid"), .init(value: false, category: "valid")]
        case "array"?:
            if case .array(let prefix)? = schema["prefixItems"], let bound = prefix.first?.objectValue { return rangeValid(bound) }
            return arrayValid(schema["items"]?.objectValue ?? [:])
        case "object"?:
            if let values = schema["additionalProperties"]?.objectValue { return dictionaryValid(values) }
            return members(schema).valid
        default:
            return unknown(schema)
        }
    }

    /// The near-misses of `schema`.
    func nearMisses(_ schema: JSONObject) -> [GeneratedValue] {
        let schema = resolved(schema)
        if let wrapped = Self.nullableWrapped(schema) {
            return nearMisses(wrapped).filter { $0.category != Self.nullForNonOptional }
        }
        let null = GeneratedValue(value: .null, category: Self.nullForNonOptional)
        if case .array(let choices)? = schema["oneOf"] { return keyedNearMisses(choices.compactMap(\.objectValue)) + [null] }
        if case .array(let values)? = schema["enum"] { return rawEnumNearMisses(values, type: schema["type"]?.stringValue) + [null] }
        let misses: [GeneratedValue]
        switch schema["type"]?.stringValue {
        case "integer"?: misses = integerNearMisses(schema)
        case "number"?: misses = numberNearMisses(schema)
        case "string"?: misses = stringNearMisses(schema)
        case "boolean"?: misses = [.init(value: "true", category: "wrong JSON type"), .init(value: 1, category: "wrong JSON type")]
        case "array"?:
            if case .array(let prefix)? = schema["prefixItems"], let bound = prefix.first?.objectValue {
                misses = rangeNearMisses(bound)
            } else {
                misses = arrayNearMisses(schema["items"]?.objectValue ?? [:])
            }
        case "object"?:
            if let values = schema["additionalProperties"]?.objectValue {
                misses = dictionaryNearMisses(values)
            } else {
                misses = members(schema).nearMisses + [.init(value: "object", category: "wrong JSON type")]
            }
        default:
            misses = unknown(schema)
        }
        return misses + [null]
    }

    /// The values of an object with `properties` and `required`: the canonical object, one
    /// property changed to each of its other valid values, optional ones left out, an extra key;
    /// and as near-misses one property changed to each of its near-misses or a required one left out.
    func members(_ schema: JSONObject) -> (valid: [GeneratedValue], nearMisses: [GeneratedValue]) {
        let properties = schema["properties"]?.objectValue ?? [:]
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var canonical = JSONObject()
        for (key, property) in properties.members { canonical[key] = valid(property.objectValue!)[0].value }
        var validValues = [GeneratedValue(value: .object(canonical), category: "valid")]
        var misses: [GeneratedValue] = []
        for (key, property) in properties.members {
            let propertySchema = property.objectValue!
            for variant in valid(propertySchema).dropFirst() {
                validValues.append(.init(value: .object(Self.replacing(key, in: canonical, with: variant.value)), category: variant.category))
            }
            if required.contains(key) {
                misses.append(.init(value: .object(Self.replacing(key, in: canonical, with: nil)), category: "missing required field"))
            } else {
                validValues.append(
                    .init(value: .object(Self.replacing(key, in: canonical, with: nil)), category: "valid: optional field left out"))
            }
            for miss in nearMisses(propertySchema) {
                misses.append(.init(value: .object(Self.replacing(key, in: canonical, with: miss.value)), category: miss.category))
            }
        }
        var extra = canonical
        extra["unexpectedKey"] = 1
        validValues.append(.init(value: .object(extra), category: "valid: extra key"))
        return (validValues, misses)
    }

    // MARK: - Scalars

    private static let integerTypes: [String: String] = [
        "127": "Int8", "32767": "Int16", "2147483647": "Int32", "9223372036854775807": "Int64",
        "255": "UInt8", "65535": "UInt16", "4294967295": "UInt32", "18446744073709551615": "UInt64",
    ]

    private func integerValid(_ schema: JSONObject) -> [GeneratedValue] {
        guard case .number(let minimum)? = schema["minimum"], case .number(let maximum)? = schema["maximum"] else {
            return [.init(value: 0, category: "valid")]
        }
        return [
            .init(value: 0, category: "valid"), .init(value: .number(minimum), category: "valid: the type's minimum"),
            .init(value: .number(maximum), category: "valid: the type's maximum"),
            .init(value: .number("1.0"), category: "valid: integral number written with a fraction"),
            .init(value: .number("1e2"), category: "valid: integral number written with an exponent"),
        ]
    }

    private func integerNearMisses(_ schema: JSONObject) -> [GeneratedValue] {
        var misses: [GeneratedValue] = [
            .init(value: .number("1.5"), category: "fraction for integer"), .init(value: "1", category: "wrong JSON type"),
        ]
        if case .number(let minimum)? = schema["minimum"], case .number(let maximum)? = schema["maximum"] {
            let type = Self.integerTypes[maximum] ?? "its type"
            misses.append(.init(value: .number(Self.beyond(maximum)), category: "integer beyond \(type)'s maximum"))
            misses.append(.init(value: .number(Self.beyond(minimum)), category: "integer below \(type)'s minimum"))
        }
        return misses
    }

    /// One past a decimal integer lexeme, away from zero (`127` → `128`, `-128` → `-129`, `0` → `-1`).
    static func beyond(_ lexeme: String) -> String {
        if lexeme == "0" { return "-1" }
        let negative = lexeme.hasPrefix("-")
        var digits = Array(lexeme.drop { $0 == "-" }.utf8.map { Int($0) - 48 })
        var i = digits.count - 1
        while i >= 0 {
            if digits[i] < 9 {
                digits[i] += 1
                break
            }
            digits[i] = 0
            i -= 1
        }
        if i < 0 { digits.insert(1, at: 0) }
        return (negative ? "-" : "") + String(digits.map { Character(String($0)) })
    }

    private func numberValid(_ schema: JSONObject) -> [GeneratedValue] {
        switch schema["x-swift-type"]?.stringValue {
        case "Date"?:
            return [
                .init(value: .number("7.5e8"), category: "valid"), .init(value: 0, category: "valid"),
                .init(value: .number("-1e9"), category: "valid"),
                .init(value: "2026-12-01T10:00:00Z", category: "valid: RFC 3339 text for Date"),
            ]
        case "Float"?:
            return [
                .init(value: .number("0.5"), category: "valid"),
                .init(value: .number("3.4028234663852886e38"), category: "valid: largest Float"),
            ]
        case "Decimal"?:
            return [
                .init(value: .number("12.5"), category: "valid"),
                .init(value: .number("9.99e127"), category: "valid: Decimal with exponent 127"),
            ]
        default:
            return [
                .init(value: .number("2.5"), category: "valid"), .init(value: 0, category: "valid"),
                .init(value: .number("-1.7976931348623157e308"), category: "valid: largest Double"),
                .init(value: .number("5e-324"), category: "valid: smallest Double"),
            ]
        }
    }

    private func numberNearMisses(_ schema: JSONObject) -> [GeneratedValue] {
        let overflow = GeneratedValue(value: .number("1e400"), category: "number beyond Double")
        switch schema["x-swift-type"]?.stringValue {
        case "Date"?:
            return [overflow, .init(value: "tomorrow", category: "text that is no date for Date"), .init(value: true, category: "wrong JSON type")]
        case "Float"?:
            return [
                overflow, .init(value: .number("1e39"), category: "number beyond Float"),
                .init(value: .number("1e-50"), category: "number Float rounds to zero"),
            ]
        case "Decimal"?:
            return [
                overflow, .init(value: .number("1e128"), category: "Decimal exponent beyond 127"),
                .init(value: "12.5", category: "Decimal as text"),
            ]
        default:
            return [
                overflow, .init(value: .number("-1e400"), category: "number beyond Double"),
                .init(value: .number("1e-400"), category: "number Double rounds to zero"),
                .init(value: "2.5", category: "wrong JSON type"),
            ]
        }
    }

    private func stringValid(_ schema: JSONObject) -> [GeneratedValue] {
        switch schema["x-swift-type"]?.stringValue {
        case "UUID"?:
            return [
                .init(value: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", category: "valid"),
                .init(value: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", category: "valid"),
            ]
        case "URL"?:
            return [
                .init(value: "https://example.com/track?id=1", category: "valid"),
                .init(value: "not a url", category: "valid: text URL(string:) accepts that is no RFC 3986 URI"),
            ]
        default:
            return [
                .init(value: "Gate B12", category: "valid"), .init(value: "", category: "valid"),
                .init(value: "é ✈︎ \u{1F600}", category: "valid"),
            ]
        }
    }

    private func stringNearMisses(_ schema: JSONObject) -> [GeneratedValue] {
        let wrongType = GeneratedValue(value: 12, category: "wrong JSON type")
        switch schema["x-swift-type"]?.stringValue {
        case "UUID"?:
            return [
                wrongType, .init(value: "not-a-uuid", category: "non-UUID string for UUID"),
                .init(value: "E621E1F8C36C495A93FC0C247A3E6E5F", category: "non-UUID string for UUID"),
            ]
        case "URL"?:
            return [
                wrongType, .init(value: "", category: "empty string for URL"),
                .init(value: "http://a b.com", category: "URL(string:) refuses the text"),
            ]
        default:
            return [wrongType, .init(value: false, category: "wrong JSON type")]
        }
    }

    // MARK: - Enums

    private func rawEnumNearMisses(_ values: [JSONValue], type: String?) -> [GeneratedValue] {
        switch type {
        case "string"?: [.init(value: "nope", category: "value outside the enum"), .init(value: 1, category: "wrong JSON type")]
        case "integer"?: [.init(value: 99, category: "value outside the enum"), .init(value: "1", category: "wrong JSON type")]
        default: [.init(value: .number("0.3"), category: "value outside the enum"), .init(value: "0.5", category: "wrong JSON type")]
        }
    }

    /// `(case name, payload schema)` of each single-key choice.
    private func keyedCases(_ choices: [JSONObject]) -> [(name: String, payload: JSONObject)] {
        choices.map { choice in
            let member = choice["properties"]!.objectValue!.members[0]
            return (member.key, member.value.objectValue!)
        }
    }

    private func keyedValid(_ choices: [JSONObject]) -> [GeneratedValue] {
        keyedCases(choices).flatMap { name, payload in
            members(payload).valid.map { GeneratedValue(value: [name: $0.value], category: $0.category) }
        }
    }

    private func keyedNearMisses(_ choices: [JSONObject]) -> [GeneratedValue] {
        let cases = keyedCases(choices)
        var misses: [GeneratedValue] = [
            .init(value: ["nope": [:]], category: "case outside the enum"),
            .init(value: .string(cases[0].name), category: "case name as a bare string"),
        ]
        if cases.count > 1 {
            let first = members(cases[0].payload).valid[0].value, second = members(cases[1].payload).valid[0].value
            misses.append(
                .init(value: .object(JSONObject([(cases[0].name, first), (cases[1].name, second)])), category: "two case keys"))
        }
        for (name, payload) in cases {
            for miss in members(payload).nearMisses {
                misses.append(.init(value: [name: miss.value], category: "associated values: " + miss.category))
            }
            misses.append(.init(value: [name: []], category: "associated values: wrong JSON type"))
        }
        return misses
    }

    // MARK: - Collections

    private func rangeValid(_ bound: JSONObject) -> [GeneratedValue] {
        let numbers = valid(bound).filter { if case .number = $0.value { true } else { false } }
            .sorted { $0.value.doubleValue! < $1.value.doubleValue! }
        let low = numbers.first!.value, high = numbers.last!.value
        var values: [GeneratedValue] = [
            .init(value: [low, high], category: "valid"), .init(value: [low, low], category: "valid: range of one point"),
        ]
        if bound["x-swift-type"] == "Date" {
            values.append(
                .init(value: ["2026-12-01T10:00:00Z", "2026-12-01T11:30:00Z"], category: "valid: RFC 3339 text for Date"))
        }
        return values
    }

    private func rangeNearMisses(_ bound: JSONObject) -> [GeneratedValue] {
        let numbers = valid(bound).filter { if case .number = $0.value { true } else { false } }
            .sorted { $0.value.doubleValue! < $1.value.doubleValue! }
        let low = numbers.first!.value, high = numbers.last!.value
        var misses: [GeneratedValue] = [
            .init(value: [low], category: "range with 1 item"),
            .init(value: [low, high, high], category: "intended: range with 3 items"),
            .init(value: [high, low], category: "range with lower bound above upper"),
            .init(value: "range", category: "wrong JSON type"),
        ]
        for miss in nearMisses(bound) { misses.append(.init(value: [low, miss.value], category: "range bound: " + miss.category)) }
        return misses
    }

    /// One array of every plain valid item, and each item of a special category alone, so
    /// that a disagreement is reported under that item's category.
    private func arrayValid(_ item: JSONObject) -> [GeneratedValue] {
        let items = valid(item)
        let plain = items.filter { $0.category == "valid" }
        return [
            .init(value: [items[0].value], category: "valid"), .init(value: [], category: "valid: empty array"),
            .init(value: .array(plain.map(\.value)), category: "valid"),
        ] + items.filter { $0.category != "valid" }.map { GeneratedValue(value: [$0.value], category: $0.category) }
    }

    private func arrayNearMisses(_ item: JSONObject) -> [GeneratedValue] {
        let canonical = valid(item)[0].value
        return nearMisses(item).map { GeneratedValue(value: [canonical, $0.value], category: $0.category) }
            + [.init(value: "list", category: "wrong JSON type")]
    }

    private func dictionaryValid(_ value: JSONObject) -> [GeneratedValue] {
        let values = valid(value)
        var plain = JSONObject()
        for (i, variant) in values.enumerated() where variant.category == "valid" { plain["key\(i)"] = variant.value }
        return [
            .init(value: ["a": values[0].value], category: "valid"), .init(value: [:], category: "valid"),
            .init(value: .object(plain), category: "valid"),
        ] + values.filter { $0.category != "valid" }.map { GeneratedValue(value: ["a": $0.value], category: $0.category) }
    }

    private func dictionaryNearMisses(_ value: JSONObject) -> [GeneratedValue] {
        nearMisses(value).map { GeneratedValue(value: ["a": $0.value], category: $0.category) }
            + [.init(value: [], category: "wrong JSON type")]
    }

    // MARK: - Helpers

    /// A schema the reader does not write fails the test rather than being skipped; the
    /// placeholder keeps the values around it generated.
    private func unknown(_ schema: JSONObject) -> [GeneratedValue] {
        Issue.record("the generator does not know the schema \(JSONWriter.string(.object(schema)))")
        return [GeneratedValue(value: .null, category: "schema the generator does not know")]
    }

    private func resolved(_ schema: JSONObject) -> JSONObject {
        guard case .string(let reference)? = schema["$ref"] else { return schema }
        let name = String(reference.dropFirst("#/$defs/".count))
        return definitions[name]!.objectValue!
    }

    /// The schema without its `null` alternative, when it has one.
    private static func nullableWrapped(_ schema: JSONObject) -> JSONObject? {
        if case .array(let types)? = schema["type"], types.contains(.string("null")) {
            var wrapped = schema
            wrapped["type"] = types.first { $0 != .string("null") }!
            if case .array(let values)? = schema["enum"] { wrapped["enum"] = .array(values.filter { $0 != .null }) }
            return wrapped
        }
        if case .array(let choices)? = schema["anyOf"], choices.count == 2, choices[1] == ["type": "null"] {
            return choices[0].objectValue!
        }
        return nil
    }

    /// `object` with `key` set to `value`, or removed when `value` is nil, keeping key order.
    static func replacing(_ key: String, in object: JSONObject, with value: JSONValue?) -> JSONObject {
        var members: [(key: String, value: JSONValue)] = []
        for member in object.members {
            if member.key.hasSameBytes(as: key) {
                if let value { members.append((key, value)) }
            } else {
                members.append(member)
            }
        }
        return JSONObject(members)
    }
}
