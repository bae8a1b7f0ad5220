/// The shape rules a `jsonSchema` must pass before it is published, one check per rule below.
/// Every failure is a 400 whose message starts with the offending path
/// (`jsonSchema.attributes.required[1]: …`), because the author has to find it in their text.
public enum SchemaRules {
    /// 64 KB means 65,536 bytes of the UTF-8 text.
    public static let maxSchemaBytes = 65_536
    /// The root object is level 1.
    public static let maxDepth = 64

    /// Parses and checks `text`, returning the document split into its two parts. The schema
    /// must also compile (every reference inside the document, every pattern valid, within the
    /// compiled size bound), since a value check needs it whole.
    public static func validate(_ text: String) throws(RegistryError) -> SchemaDocument {
        let document = try readStored(text)
        if case .failure(let error) = document.compiled { throw refusal(error) }
        return document
    }

    /// Parses a text that was published already: the shape rules held then, and a schema that
    /// a later rule refuses to compile still yields a document (its checks then say why they
    /// cannot run).
    public static func readStored(_ text: String) throws(RegistryError) -> SchemaDocument {
        let size = text.utf8.count
        guard size <= maxSchemaBytes else {
            throw .invalidArgument("jsonSchema is \(size) bytes; at most \(maxSchemaBytes) bytes are allowed")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text, options: .init(maxDepth: maxDepth, rejectDuplicateKeys: true))
        } catch {
            let location = error.path.isEmpty ? "jsonSchema" : "jsonSchema.\(error.path)"
            throw .invalidArgument("\(location): not valid JSON: \(error.message) (byte \(error.offset))")
        }
        return try shape(value)
    }

    /// Checks an already parsed schema, compiling it as `validate(_ text:)` does.
    public static func validate(_ value: JSONValue) throws(RegistryError) -> SchemaDocument {
        let document = try shape(value)
        if case .failure(let error) = document.compiled { throw refusal(error) }
        return document
    }

    /// The 400 for a schema that does not compile, at the path of the keyword at fault.
    public static func refusal(_ error: SchemaCompileError) -> RegistryError {
        .invalidArgument("\(JSONPathComponent.render(pointer: error.path, prefix: "jsonSchema")): \(error.message)")
    }

    private static func shape(_ value: JSONValue) throws(RegistryError) -> SchemaDocument {
        guard case .object(let root) = value else {
            throw .invalidArgument("jsonSchema: must be a JSON object, not \(value.typeName)")
        }
        guard root["type"] == .string("object") else {
            throw .invalidArgument(#"jsonSchema.type: must be the string "object" (the form needs named fields)"#)
        }
        let content = try propertiesObject(root["properties"], path: "jsonSchema.properties", required: false)
        if let rootRequired = root["required"] {
            _ = try uniqueStrings(rootRequired, path: "jsonSchema.required")
        }
        guard let attributesValue = root["attributes"] else {
            return SchemaDocument(root: root, contentProperties: content, attributesProperties: nil, attributesRequired: [])
        }
        guard case .object(let attributes) = attributesValue else {
            throw .invalidArgument("jsonSchema.attributes: must be an object, not \(attributesValue.typeName)")
        }
        let attributeProperties = try propertiesObject(
            attributes["properties"], path: "jsonSchema.attributes.properties", required: true)
        var required: [String] = []
        if let requiredValue = attributes["required"] {
            required = try uniqueStrings(requiredValue, path: "jsonSchema.attributes.required")
            for (i, name) in required.enumerated() where attributeProperties[name] == nil {
                throw .invalidArgument(
                    "jsonSchema.attributes.required[\(i)]: \(ClientText.quoted(name)) is not declared in jsonSchema.attributes.properties"
                )
            }
        }
        for key in attributeProperties.keys where content[key] != nil {
            throw .invalidArgument(
                "\(JSONPathComponent.render([.key(key)], prefix: "jsonSchema.attributes.properties")): \(ClientText.quoted(key)) is also declared in jsonSchema.properties; a field is either content state or an attribute"
            )
        }
        return SchemaDocument(
            root: root, contentProperties: content, attributesProperties: attributeProperties, attributesRequired: required)
    }

    private static func propertiesObject(_ value: JSONValue?, path: String, required: Bool) throws(RegistryError)
        -> JSONObject
    {
        guard let value else {
            if required { throw .invalidArgument("\(path): is required and must be an object") }
            return JSONObject()
        }
        guard case .object(let object) = value else {
            throw .invalidArgument("\(path): must be an object, not \(value.typeName)")
        }
        for member in object.members {
            guard case .object = member.value else {
                throw .invalidArgument(
                    "\(JSONPathComponent.render([.key(member.key)], prefix: path)): must be an object (a schema), not \(member.value.typeName)"
                )
            }
        }
        return object
    }

    private static func uniqueStrings(_ value: JSONValue, path: String) throws(RegistryError) -> [String] {
        guard case .array(let elements) = value else {
            throw .invalidArgument("\(path): must be an array of strings, not \(value.typeName)")
        }
        var names: [String] = []
        for (i, element) in elements.enumerated() {
            guard case .string(let name) = element else {
                throw .invalidArgument("\(path)[\(i)]: must be a string, not \(element.typeName)")
            }
            if names.containsExactly(name) {
                throw .invalidArgument("\(path)[\(i)]: \(JSONWriter.string(element)) is listed twice")
            }
            names.append(name)
        }
        return names
    }
}
