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

/// An enum declared in the file with `String` or integer raw values, which `Codable` writes as
/// the bare raw value.
struct SwiftEnumUse: Sendable {
    /// Dotted path, such as `FlightAttributes.Status`.
    var name: String
    /// `string` or `integer`.
    var jsonType: String
    /// Raw values in case order.
    var values: [(caseName: String, value: JSONValue)]
}
