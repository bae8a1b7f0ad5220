/// A JSON document as parsed: objects keep their keys in the order of the text, and numbers
/// keep their exact lexeme, because both the form's field order and verbatim `default` / `enum`
/// values come straight from the author's schema text.
///
/// Equality compares strings and keys by Unicode scalars (RFC 8259 §8.3), never by Swift's
/// canonical equivalence: `"Caf\u{E9}"` and `"Cafe\u{301}"` are two different JSON strings.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number exactly as written (RFC 8259 grammar), so `1.50` or `1e400` survive a round trip.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// An ordered JSON object. Lookups are linear scans: schema objects hold a handful of keys,
/// and order matters more than asymptotics here. Keys match by Unicode scalars (`ExactName`),
/// as JSON and JSON Schema compare them.
public struct JSONObject: Sendable, Equatable {
    /// The members in text order. Duplicate keys are possible only when the parser allowed them.
    public var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value of the first member named `key`, if any.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key.hasSameBytes(as: key) })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key.hasSameBytes(as: key) }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key.hasSameBytes(as: $1.key) && $0.value == $1.value }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONValue {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let l), .bool(let r)): l == r
        case (.number(let l), .number(let r)): l.hasSameBytes(as: r)
        case (.string(let l), .string(let r)): l.hasSameBytes(as: r)
        case (.array(let l), .array(let r)): l == r
        case (.object(let l), .object(let r)): l == r
        default: false
        }
    }

    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The member `key` when this is an object, so lookups chain: `body["schema"]?["version"]`.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// The number as a `Double` (may be ±infinity for huge lexemes), or nil when not a number.
    public var doubleValue: Double? { if case .number(let n) = self { Double(n) } else { nil } }

    /// The number as an exact integer when its lexeme is one (`3`, `-7`; not `3.0` or `1e2`).
    public var integerLexemeValue: Int? { if case .number(let n) = self { Int(n) } else { nil } }

    /// Whether the number denotes an integer value (`3`, `3.0`, `1e2`), as JSON Schema counts it.
    public var isIntegral: Bool {
        if case .number(let lexeme) = self { JSONNumber(lexeme).isInteger } else { false }
    }

    /// The JSON type name used in messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}
