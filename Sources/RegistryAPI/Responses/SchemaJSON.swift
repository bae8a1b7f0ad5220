import Registry

/// Renders stored versions with the proto (snake_case) field names. `updated` equals
/// `created`: versions are immutable.
enum SchemaJSON {
    static func object(_ schema: SchemaVersion) -> JSONValue {
        [
            "application": .string(schema.applicationCode),
            "attributes_type": .string(schema.attributesType),
            "version": .number(String(schema.version)),
            "json_schema": .string(schema.jsonSchema),
            "created": .string(schema.created),
            "updated": .string(schema.created),
        ]
    }
}

extension SchemaVersion {
    /// The stored text as a validated document. It passed the rules when published, so a
    /// failure now means damaged data: a 500, not the caller's 400.
    func document() throws(RegistryError) -> SchemaDocument {
        do {
            return try SchemaRules.validate(jsonSchema)
        } catch {
            throw .internal("stored schema no longer passes the schema rules")
        }
    }
}
