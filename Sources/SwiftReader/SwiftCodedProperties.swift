/// A property synthesized `Codable` encodes, with its JSON key.
struct SwiftCodedProperty: Sendable {
    var key: String
    var property: SwiftProperty
}

/// Which properties synthesized `Codable` encodes, and under which keys: the stored instance
/// properties in declaration order, renamed and filtered by a `CodingKeys` enum when there is one.
///
/// A `let` with an initial value is left out: synthesized `init(from:)` cannot assign it, so it
/// is never decoded (the compiler warns about exactly this), and a schema field for it would
/// promise a value the app ignores. Static and computed properties are not stored.
enum SwiftCodedProperties {
    static func of(_ declaration: SwiftTypeDeclaration, named name: String) throws(SwiftSchemaError) -> [SwiftCodedProperty] {
        if let custom = declaration.members.customCoding.first {
            throw SwiftSchemaError(
                "'\(name)' has a hand-written \(custom.signature); only synthesized Codable can be turned into a schema",
                at: custom.location)
        }
        let stored = declaration.members.properties.filter { !$0.isStatic && !$0.isComputed }
        let keys = try codingKeys(of: declaration)
        if let keys {
            for enumCase in keys.cases where !stored.contains(where: { $0.name == enumCase.name }) {
                throw SwiftSchemaError(
                    "CodingKeys case '\(enumCase.name)' matches no stored property of '\(name)'", at: enumCase.location)
            }
        }
        var coded: [SwiftCodedProperty] = []
        for property in stored where !(property.isLet && property.initializer != nil) {
            let key: String
            if let keys {
                guard let renamed = keys.keys[property.name] else { continue }
                key = renamed
            } else {
                key = property.name
            }
            if let wrapper = property.wrapperAttribute {
                throw SwiftSchemaError(
                    "unsupported property wrapper '@\(wrapper)' on property '\(property.name)'", at: property.location)
            }
            if property.isLazy {
                throw SwiftSchemaError("unsupported lazy property '\(property.name)'", at: property.location)
            }
            coded.append(SwiftCodedProperty(key: key, property: property))
        }
        return coded
    }

    /// The `CodingKeys` enum's key for each property name; a `String`-backed key uses its raw
    /// value, any other key its case name.
    private static func codingKeys(of declaration: SwiftTypeDeclaration) throws(SwiftSchemaError)
        -> (keys: [String: String], cases: [SwiftEnumCase])?
    {
        guard let keysEnum = declaration.members.types.first(where: { $0.name == "CodingKeys" && $0.kind == .enum })
        else { return nil }
        let isStringBacked = keysEnum.inheritance.first.map { type in
            if case .named(let components) = type.kind { components.last?.name == "String" } else { false }
        } ?? false
        var keys: [String: String] = [:]
        for enumCase in keysEnum.members.cases {
            switch (isStringBacked, enumCase.rawValue) {
            case (true, .string(let key)?): keys[enumCase.name] = key
            case (_, nil), (false, _): keys[enumCase.name] = enumCase.name
            case (true, _?):
                throw SwiftSchemaError("CodingKeys case '\(enumCase.name)' must have a string literal raw value", at: enumCase.location)
            }
        }
        return (keys, keysEnum.members.cases)
    }
}
