/// A request field's two accepted spellings (lowerCamelCase and the proto name); responses
/// always use the proto name.
struct FieldName: Sendable {
    let camel: String
    let snake: String

    init(_ camel: String, _ snake: String) {
        self.camel = camel
        self.snake = snake
    }

    init(_ single: String) { self.init(single, single) }

    var spellings: [String] { camel == snake ? [camel] : [camel, snake] }

    static let application = FieldName("application")
    static let attributesType = FieldName("attributesType", "attributes_type")
    static let jsonSchema = FieldName("jsonSchema", "json_schema")
    static let version = FieldName("version")
    static let pageSize = FieldName("pageSize", "page_size")
    static let pageToken = FieldName("pageToken", "page_token")
    static let requireCompatible = FieldName("requireCompatible", "require_compatible")
}
