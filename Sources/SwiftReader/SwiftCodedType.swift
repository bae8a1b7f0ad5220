import Registry

/// A Swift type resolved to the shape `JSONEncoder` gives it: what the schema emitter works from
/// once names, type aliases and generic parameters are gone.
indirect enum SwiftCodedType: Sendable {
    case scalar(name: String, schema: JSONObject)
    case optional(SwiftCodedType)
    case array(SwiftCodedType)
    /// A dictionary with `String` keys: a JSON object.
    case dictionary(SwiftCodedType)
    case structure(SwiftStructUse)
    case enumeration(SwiftEnumUse)
    /// `ClosedRange<T>` or `Range<T>`, which `Codable` writes as `[lowerBound, upperBound]`.
    case range(bound: SwiftCodedType, closed: Bool)

    var isOptional: Bool { if case .optional = self { true } else { false } }

    /// A name for `$defs` built from Swift names but free of `<`, `>` and `/`, which would
    /// need escaping in a `$ref`.
    var definitionName: String {
        switch self {
        case .scalar(let name, _): name
        case .optional(let wrapped): "Optional_" + wrapped.definitionName
        case .array(let element): "Array_" + element.definitionName
        case .dictionary(let value): "Dictionary_" + value.definitionName
        case .structure(let use): use.definitionName
        case .enumeration(let use): use.name
        case .range(let bound, let closed): (closed ? "ClosedRange_" : "Range_") + bound.definitionName
        }
    }
}

/// A struct declared in the file, with its generic parameters bound.
struct SwiftStructUse: Sendable {
    /// Where it is declared, as a path from the file level.
    var path: [String]
    var declaration: SwiftTypeDeclaration
    var generics: [String: SwiftCodedType]
    /// `FlightAttributes.Leg`, or `Box_Int` for `Box<Int>`.
    var definitionName: String
}

/// An enum declared in the sources, in one of the two forms synthesized `Codable` writes.
struct SwiftEnumUse: Sendable {
    enum Form: Sendable {
        /// A raw-value enum whose raw type is `Codable` is written as the bare raw value;
        /// `jsonType` is `string`, `integer` or `number`, the values are in case order.
        case rawValues(jsonType: String, values: [(caseName: String, value: JSONValue)])
        /// Any other enum (no raw type, associated values, or a `Character` raw type, which is not
        /// `Codable`) is written as an object with one key, the case name, whose value is an
        /// object of the associated values.
        case keyed([SwiftEnumCase])
    }

    /// Dotted path, such as `FlightAttributes.Status`.
    var name: String
    /// Where it is declared, the scope its associated value types are resolved in.
    var path: [String]
    var form: Form
}
