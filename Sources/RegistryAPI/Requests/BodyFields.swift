import Registry

/// A JSON request body: an object of at most the server's body limit, fields read under
/// either spelling, unknown fields ignored.
struct BodyFields: Sendable {
    /// Request bodies nest little; the limit only stops hostile input early.
    static let maxDepth = 64

    let object: JSONObject

    init(body: [UInt8]) throws(RegistryError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body, options: .init(maxDepth: Self.maxDepth))
        } catch {
            throw .invalidArgument("request body: not valid JSON: \(error.description)")
        }
        guard case .object(let object) = value else {
            throw .invalidArgument("request body: must be a JSON object, not \(value.typeName)")
        }
        self.object = object
    }

    /// The raw value under either spelling; both spellings, or one key twice, is a 400.
    func value(_ field: FieldName) throws(RegistryError) -> JSONValue? {
        try field.pick(from: object.members)
    }

    /// A string field; `null` counts as absent, as in protobuf JSON.
    func string(_ field: FieldName) throws(RegistryError) -> String? {
        switch try value(field) {
        case nil, .null?: return nil
        case .string(let s)?:
            // PostgreSQL text cannot hold NUL; say which field instead of failing at the database.
            if s.utf8.contains(0) { throw .invalidArgument("\(field.shown): must not contain NUL characters") }
            return s
        case let other?: throw .invalidArgument("\(field.shown): must be a string, not \(other.typeName)")
        }
    }

    /// A string field that must be present and non-empty.
    func requiredString(_ field: FieldName) throws(RegistryError) -> String {
        guard let value = try string(field) else { throw .invalidArgument("\(field.shown): is required") }
        guard !value.isEmpty else { throw .invalidArgument("\(field.shown): must not be empty") }
        return value
    }

    /// A boolean field; absent or `null` is false.
    func flag(_ field: FieldName) throws(RegistryError) -> Bool {
        switch try value(field) {
        case nil, .null?: return false
        case .bool(let b)?: return b
        case let other?: throw .invalidArgument("\(field.shown): must be true or false, not \(other.typeName)")
        }
    }
}
