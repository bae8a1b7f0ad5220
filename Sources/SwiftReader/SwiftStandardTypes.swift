import Registry

/// What `JSONEncoder`, with its default strategies as ActivityKit uses them, writes for the
/// standard types a Live Activity may hold.
enum SwiftStandardTypes {
    /// Module names that may qualify a standard type (`Swift.Int`, `Foundation.Date`).
    static let modules: Set<String> = ["Swift", "Foundation", "CoreGraphics", "ActivityKit"]

    /// Schemas of the scalar types, by Swift name. Sized integers carry their range, because a
    /// value outside it fails to decode on the device.
    static let scalars: [String: JSONObject] = [
        "String": ["type": "string"],
        "Int": ["type": "integer"],
        "UInt": ["type": "integer", "minimum": 0],
        "Int8": integer(minimum: "-128", maximum: "127"),
        "Int16": integer(minimum: "-32768", maximum: "32767"),
        "Int32": integer(minimum: "-2147483648", maximum: "2147483647"),
        "Int64": integer(minimum: "-9223372036854775808", maximum: "9223372036854775807"),
        "UInt8": integer(minimum: "0", maximum: "255"),
        "UInt16": integer(minimum: "0", maximum: "65535"),
        "UInt32": integer(minimum: "0", maximum: "4294967295"),
        "UInt64": integer(minimum: "0", maximum: "18446744073709551615"),
        "Double": ["type": "number"],
        "Float": ["type": "number"],
        "CGFloat": ["type": "number"],
        "Decimal": ["type": "number"],
        "TimeInterval": ["type": "number"],
        "Bool": ["type": "boolean"],
        // JSONEncoder's default date strategy writes seconds since 2001-01-01 (reference date).
        "Date": ["type": "number", "format": "date-time", "x-swift-type": "Date"],
        "URL": ["type": "string", "format": "uri"],
        "UUID": ["type": "string", "format": "uuid"],
    ]

    private static func integer(minimum: String, maximum: String) -> JSONObject {
        ["type": "integer", "minimum": .number(minimum), "maximum": .number(maximum)]
    }
}
