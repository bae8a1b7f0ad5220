import Registry

/// What `JSONEncoder`, with its default strategies as ActivityKit uses them, writes for the
/// standard types a Live Activity may hold.
enum SwiftStandardTypes {
    /// Module names that may qualify a standard type (`Swift.Int`, `Foundation.Date`).
    static let modules: Set<String> = ["Swift", "Foundation", "CoreGraphics", "ActivityKit"]

    /// Schemas of the scalar types, by Swift name, stating what `JSONDecoder` accepts on the
    /// device: every integer type carries its exact range (`Int` and `UInt` are 64-bit on every
    /// device ActivityKit runs on) and `Float` its finite range, because a value outside fails to
    /// decode. `UUID`, `URL` and `Date` carry `x-swift-type`, since their JSON type alone (a
    /// string, a number) lets through text or numbers the app cannot decode.
    static let scalars: [String: JSONObject] = [
        "String": ["type": "string"],
        "Int": int64,
        "UInt": uint64,
        "Int8": integer(minimum: "-128", maximum: "127"),
        "Int16": integer(minimum: "-32768", maximum: "32767"),
        "Int32": integer(minimum: "-2147483648", maximum: "2147483647"),
        "Int64": int64,
        "UInt8": integer(minimum: "0", maximum: "255"),
        "UInt16": integer(minimum: "0", maximum: "65535"),
        "UInt32": integer(minimum: "0", maximum: "4294967295"),
        "UInt64": uint64,
        "Double": ["type": "number"],
        // ±Float.greatestFiniteMagnitude: JSONDecoder refuses a number whose Float would be
        // infinite (and one that would round to zero, which `x-swift-type` lets a checker find).
        "Float": [
            "type": "number", "minimum": .number("-3.4028234663852886e38"), "maximum": .number("3.4028234663852886e38"),
            "x-swift-type": "Float",
        ],
        "CGFloat": ["type": "number"],
        // JSONDecoder reads a Decimal from a JSON number (not a string) whose exponent, with at
        // most 38 significant digits, fits -128…127: `9.99e127` decodes, `1e128` does not.
        "Decimal": ["type": "number", "x-swift-type": "Decimal"],
        "TimeInterval": ["type": "number"],
        "Bool": ["type": "boolean"],
        // JSONEncoder's default date strategy writes seconds since 2001-01-01 (reference date).
        "Date": ["type": "number", "format": "date-time", "x-swift-type": "Date"],
        "URL": ["type": "string", "format": "uri", "x-swift-type": "URL"],
        "UUID": ["type": "string", "format": "uuid", "x-swift-type": "UUID"],
    ]

    private static let int64 = integer(minimum: "-9223372036854775808", maximum: "9223372036854775807")
    private static let uint64 = integer(minimum: "0", maximum: "18446744073709551615")

    private static func integer(minimum: String, maximum: String) -> JSONObject {
        ["type": "integer", "minimum": .number(minimum), "maximum": .number(maximum)]
    }
}
