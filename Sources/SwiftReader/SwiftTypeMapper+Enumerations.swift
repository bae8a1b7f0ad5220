import Registry

/// Enums: synthesized `Codable` writes a raw-value enum as its bare raw value, so the schema is
/// a `string` or `integer` with the raw values as `enum`. Other enums encode as keyed objects
/// whose shape depends on associated values; those are rejected.
extension SwiftTypeMapper {
    func enumeration(_ declaration: SwiftTypeDeclaration, at path: [String], type: SwiftTypeSyntax, property: String)
        throws(SwiftSchemaError) -> SwiftEnumUse
    {
        let name = path.joined(separator: ".")
        func rejected(_ reason: String) -> SwiftSchemaError {
            SwiftSchemaError(
                "unsupported type '\(type.text)' for property '\(property)': enum '\(name)' (line \(declaration.location.line)) \(reason)",
                at: type.location)
        }
        if declaration.members.cases.contains(where: \.hasAssociatedValues) { throw rejected("has associated values") }
        guard !declaration.members.cases.isEmpty else { throw rejected("has no cases") }
        guard let rawTypeSyntax = declaration.inheritance.first,
            case .scalar(_, let rawSchema)? = try? resolve(rawTypeSyntax, in: path, generics: [:], property: property),
            rawSchema["format"] == nil, case .string(let jsonType)? = rawSchema["type"], jsonType == "string" || jsonType == "integer"
        else { throw rejected("has no String or integer raw type") }

        var values: [(caseName: String, value: JSONValue)] = []
        var nextInteger = 0
        for enumCase in declaration.members.cases {
            switch (jsonType, enumCase.rawValue) {
            case ("string", nil):
                values.append((enumCase.name, .string(enumCase.name)))
            case ("string", .string(let value)?):
                values.append((enumCase.name, .string(value)))
            case ("integer", nil):
                values.append((enumCase.name, .number(String(nextInteger))))
            case ("integer", .integer(let lexeme)?):
                guard let value = Int(lexeme) else {
                    throw SwiftSchemaError("raw value of case '\(enumCase.name)' does not fit in Int", at: enumCase.location)
                }
                values.append((enumCase.name, .number(lexeme)))
                nextInteger = value
            default:
                throw SwiftSchemaError(
                    "raw value of case '\(enumCase.name)' in enum '\(name)' must be \(jsonType == "string" ? "a string" : "an integer") literal",
                    at: enumCase.location)
            }
            nextInteger = nextInteger &+ 1
        }
        return SwiftEnumUse(name: name, jsonType: jsonType, values: values)
    }
}
