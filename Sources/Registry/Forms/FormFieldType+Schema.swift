extension FormFieldType {
    /// The one type a field schema allows and whether it also allows `null`, or nil when the
    /// form cannot name one type (no `type` and no values to infer it from, several non-null
    /// types, an unknown type name).
    ///
    /// Without `type`, the `select` values decide: all strings → `string`, all integers →
    /// `integer`, otherwise `any`; a `null` among other values makes the field nullable.
    static func declared(in schema: FieldSchema, options: [JSONValue]?) -> (type: FormFieldType, isNullable: Bool)? {
        switch schema.type {
        case .string(let name)?:
            return named(name).map { ($0, false) }
        case .array(let names)?:
            let nonNull = names.filter { $0 != .string("null") }
            guard nonNull.count == 1, let type = nonNull[0].stringValue.flatMap(named) else { return nil }
            return (type, nonNull.count < names.count)
        case _?:
            return nil
        case nil:
            break
        }
        guard let options else { return nil }
        let values = options.filter { !$0.isNull }
        let isNullable = !values.isEmpty && values.count < options.count
        if values.isEmpty { return (.any, false) }
        if values.allSatisfy({ $0.stringValue != nil }) { return (.string, isNullable) }
        if values.allSatisfy(\.isIntegral) { return (.integer, isNullable) }
        return (.any, isNullable)
    }

    /// A JSON Schema type name; `any` is the form's own word, not one of them.
    private static func named(_ name: String) -> FormFieldType? {
        FormFieldType(exactly: name).flatMap { $0 == .any ? nil : $0 }
    }
}
