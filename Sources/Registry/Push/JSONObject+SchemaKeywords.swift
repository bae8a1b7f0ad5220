/// Typed reads of the JSON Schema keywords the push checks use. A keyword of the wrong JSON
/// type reads as absent: publishing only checks the schema's shape, and a malformed keyword
/// must not make every push fail.
extension JSONObject {
    /// The `type` keyword as a list (`"string"` or `["string", "null"]`); nil when absent.
    var schemaTypes: [String]? {
        switch self["type"] {
        case .string(let name): [name]
        case .array(let names): names.compactMap(\.stringValue)
        default: nil
        }
    }

    /// The `required` keyword's names.
    var requiredNames: [String] { self["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] }

    /// Null is acceptable when `type` lists `"null"` or says nothing about the type.
    var allowsNull: Bool { schemaTypes?.contains("null") ?? true }

    /// `"x-swift-type": "Date"`: the app decodes a Swift `Date`, i.e. seconds since 2001.
    var isSwiftDate: Bool { self["x-swift-type"] == .string("Date") }

    /// A count keyword (`maxLength`, `minItems`, …) as a non-negative integer.
    func count(_ keyword: String) -> Int? {
        guard let value = self[keyword], value.isIntegral, let double = value.doubleValue,
            let count = Int(exactly: double), count >= 0
        else { return nil }
        return count
    }

    /// A numeric keyword (`minimum`, `multipleOf`, …).
    func number(_ keyword: String) -> JSONNumber? {
        if case .number(let lexeme) = self[keyword] { JSONNumber(lexeme) } else { nil }
    }
}
