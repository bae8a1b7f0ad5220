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
