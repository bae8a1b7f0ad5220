import Registry

/// Enums: synthesized `Codable` writes an enum with a `Codable` raw type as its bare raw value,
/// so the schema is a `string`, `integer` or `number` with the raw values as `enum`. Every other
/// enum, with or without associated values, is written in the keyed form `{"case": {…}}`.
extension SwiftTypeMapper {
    func enumeration(_ declaration: SwiftTypeDeclaration, at path: [String], type: SwiftTypeSyntax, property: String)
        throws(SwiftSchemaError) -> SwiftEnumUse
    {
        let name = path.joined(separator: ".")
        guard !declaration.members.cases.isEmpty else {
            throw SwiftSchemaError(
                "unsupported type '\(type.text)' for property '\(property)': enum '\(name)' (line \(declaration.location.line)) has no cases, so no value decodes",
                at: type.location)
        }
        if declaration.members.types.contains(where: { $0.name == "CodingKeys" || $0.name.hasSuffix("CodingKeys") }) {
            throw SwiftSchemaError(
                "enum '\(name)' declares its own coding keys; only the synthesized case and associated value names can be turned into a schema",
                at: declaration.location)
        }
        guard let jsonType = rawJSONType(of: declaration, at: path, property: property) else {
            return SwiftEnumUse(name: name, path: path, form: .keyed(declaration.members.cases))
        }
        return SwiftEnumUse(
            name: name, path: path,
            form: .rawValues(jsonType: jsonType, values: try rawValues(of: declaration, named: name, jsonType: jsonType)))
    }

    /// `string`, `integer` or `number` when the first inherited type is a raw type that `Codable`
    /// writes as a bare value; nil for no raw type and for `Character`, which is not `Codable`.
    private func rawJSONType(of declaration: SwiftTypeDeclaration, at path: [String], property: String) -> String? {
        guard let rawTypeSyntax = declaration.inheritance.first,
            case .scalar(_, let rawSchema)? = try? resolve(rawTypeSyntax, in: path, generics: [:], property: property),
            rawSchema["format"] == nil, case .string(let jsonType)? = rawSchema["type"],
            ["string", "integer", "number"].contains(jsonType)
        else { return nil }
        return jsonType
    }

    /// The raw values in case order, with Swift's implicit ones: the case name for `String`,
    /// and for numbers 0 for the first case, then one more than the case before, which Swift
    /// allows only after an integer literal.
    private func rawValues(of declaration: SwiftTypeDeclaration, named name: String, jsonType: String)
        throws(SwiftSchemaError) -> [(caseName: String, value: JSONValue)]
    {
        var values: [(caseName: String, value: JSONValue)] = []
        var nextInteger: Int? = 0
        for enumCase in declaration.members.cases {
            if enumCase.associatedValues != nil {
                throw SwiftSchemaError("case '\(enumCase.name)' of raw-value enum '\(name)' has associated values", at: enumCase.location)
            }
            switch (jsonType, enumCase.rawValue) {
            case ("string", nil):
                values.append((enumCase.name, .string(enumCase.name)))
            case ("string", .string(let value)?):
                values.append((enumCase.name, .string(value)))
            case (_, nil) where jsonType != "string":
                guard let implicit = nextInteger else {
                    throw SwiftSchemaError(
                        "case '\(enumCase.name)' in enum '\(name)' needs a raw value: the one before it is not an integer",
                        at: enumCase.location)
                }
                values.append((enumCase.name, .number(String(implicit))))
                nextInteger = implicit.addingReportingOverflow(1).overflow ? nil : implicit + 1
            case (_, .integer(let lexeme)?) where jsonType != "string":
                guard let value = Int(lexeme) else {
                    throw SwiftSchemaError("raw value of case '\(enumCase.name)' does not fit in Int", at: enumCase.location)
                }
                values.append((enumCase.name, .number(lexeme)))
                nextInteger = value.addingReportingOverflow(1).overflow ? nil : value + 1
            case ("number", .float(let lexeme)?):
                values.append((enumCase.name, .number(lexeme)))
                nextInteger = nil
            default:
                let expected = ["string": "a string", "integer": "an integer", "number": "a number"][jsonType]!
                throw SwiftSchemaError(
                    "raw value of case '\(enumCase.name)' in enum '\(name)' must be \(expected) literal", at: enumCase.location)
            }
        }
        return values
    }
}
