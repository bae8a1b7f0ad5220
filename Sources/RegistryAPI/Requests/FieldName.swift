import Registry

/// A request field's two accepted spellings (lowerCamelCase and the proto name); responses
/// always use the proto name.
struct FieldName: Sendable {
    enum Spelling: Sendable { case camel, snake }

    let camel: String
    let snake: String
    /// The spelling messages name the field by: the one the README and openapi show for the
    /// endpoint, so a client reads the same name it was told to send.
    let shown: String

    init(_ camel: String, _ snake: String, shown: Spelling = .camel) {
        self.camel = camel
        self.snake = snake
        self.shown = shown == .camel ? camel : snake
    }

    init(_ single: String) { self.init(single, single) }

    /// The one value given under either spelling in `items` (a body's members or a query's
    /// parameters, in order); both spellings, or one spelling twice, is a 400.
    /// One pass without building arrays: every request reads its fields through here.
    func pick<Value>(from items: [(key: String, value: Value)]) throws(RegistryError) -> Value? {
        var found: (key: String, value: Value)?
        var count = 0
        var bothSpellings = false
        for item in items where item.key.hasSameBytes(as: camel) || item.key.hasSameBytes(as: snake) {
            count += 1
            if let first = found {
                if !first.key.hasSameBytes(as: item.key) { bothSpellings = true }
            } else {
                found = item
            }
        }
        guard count <= 1 else {
            if bothSpellings {
                throw .invalidArgument("\(shown): given as both \(camel) and \(snake); use one")
            }
            throw .invalidArgument("\(shown): given more than once")
        }
        return found?.value
    }

    static let application = FieldName("application")
    static let attributesType = FieldName("attributesType", "attributes_type")
    static let jsonSchema = FieldName("jsonSchema", "json_schema")
    static let version = FieldName("version")
    static let pageSize = FieldName("pageSize", "page_size")
    static let pageToken = FieldName("pageToken", "page_token")
    static let requireCompatible = FieldName("requireCompatible", "require_compatible")
    static let action = FieldName("action")
    static let since = FieldName("since")
    static let until = FieldName("until")
    static let mode = FieldName("mode")
    static let enforce = FieldName("enforce")
    static let oldestSupportedVersion = FieldName("oldestSupportedVersion", "oldest_supported_version")
    static let after = FieldName("after")
    static let wait = FieldName("wait")
    static let url = FieldName("url")
    static let events = FieldName("events")
    static let typePrefix = FieldName("typePrefix", "type_prefix", shown: .snake)
    static let description = FieldName("description")
    static let enabled = FieldName("enabled")
    static let event = FieldName("event")
    static let graceSeconds = FieldName("graceSeconds", "grace_seconds", shown: .snake)
}
