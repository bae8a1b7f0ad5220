import Registry

/// The query string, percent-decoded strictly: an invalid escape, invalid UTF-8 or a NUL byte
/// is a 400 naming the parameter rather than a value passed on half-decoded.
struct QueryFields: Sendable {
    private let items: [(key: String, value: String)]

    init(raw: [(name: String, value: String)]) throws(RegistryError) {
        var items: [(key: String, value: String)] = []
        for item in raw {
            guard let name = PercentDecoding.decode(item.name) else {
                throw .invalidArgument("query: a parameter name has an invalid percent-encoding or is not UTF-8")
            }
            guard let value = PercentDecoding.decode(item.value) else {
                throw .invalidArgument("\(ClientText.shown(name)): invalid percent-encoding or not UTF-8")
            }
            if value.utf8.contains(0) { throw .invalidArgument("\(ClientText.shown(name)): must not contain NUL bytes") }
            items.append((name, value))
        }
        self.items = items
    }

    /// The value given under either spelling; nil when absent. Two values are a 400.
    func string(_ field: FieldName) throws(RegistryError) -> String? {
        try field.pick(from: items)
    }

    /// A value that must be present and non-empty.
    func requiredString(_ field: FieldName) throws(RegistryError) -> String {
        guard let value = try string(field), !value.isEmpty else {
            throw .invalidArgument("\(field.camel): query parameter is required")
        }
        return value
    }

    /// `pageToken` decoded by `decode`; nil when absent or empty (the first page).
    func pageToken<T>(_ decode: (String) throws(RegistryError) -> T) throws(RegistryError) -> T? {
        guard let token = try string(.pageToken), !token.isEmpty else { return nil }
        return try decode(token)
    }
}
