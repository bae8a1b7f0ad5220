/// One schema location compiled: its keywords as checks in evaluation order (the
/// `unevaluated*` keywords last, since they read what the others evaluated).
struct SchemaNode: Sendable {
    /// The JSON pointer of the schema in the document.
    var path: String
    /// The schema resource (`$id` scope) the node belongs to, for `$dynamicRef`'s dynamic scope.
    var resource: Int
    /// `x-swift-type`, named in failures so a caller can tell what the app decodes.
    var swiftType: String?
    /// The boolean schema `false`: nothing is valid.
    var isFalse: Bool = false
    var keywords: [SchemaKeyword] = []
}

/// A keyword of a node, with the pointer of the keyword in the schema text for failures.
struct SchemaKeyword: Sendable {
    let name: String
    let path: String
    var check: SchemaCheck
}

/// A compiled keyword. Subschemas are node indices; references are resolved to node indices
/// after the whole document is read (`-1` until then).
enum SchemaCheck: Sendable {
    case types([String])
    case enumeration([JSONValue])
    case constant(JSONValue)
    case minLength(Int)
    case maxLength(Int)
    case pattern(ECMARegex)
    case format(String)
    case minimum(JSONNumber)
    case maximum(JSONNumber)
    case exclusiveMinimum(JSONNumber)
    case exclusiveMaximum(JSONNumber)
    case multipleOf(JSONNumber)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems
    /// `prefixItems` (2020-12) or the array form of `items` (draft 7).
    case prefixItems([Int])
    /// `items` (2020-12, after `prefixItems`) or `additionalItems` (draft 7, after the tuple):
    /// applies to every item from `start` on.
    case items(Int, start: Int)
    case contains(Int, min: Int, max: Int?)
    case minProperties(Int)
    case maxProperties(Int)
    case required([String])
    case properties([ExactName: Int])
    case patternProperties([(ECMARegex, Int)])
    /// Applies to members matched by neither `properties` nor `patternProperties` beside it.
    case additionalProperties(Int, declared: Set<ExactName>, patterns: [ECMARegex])
    case propertyNames(Int)
    case dependentRequired([(String, [String])])
    case dependentSchemas([(String, Int)])
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(if: Int, then: Int?, else: Int?)
    case reference(Int)
    /// `$dynamicRef`: `initial` as `$ref` resolves it; when that target carries the matching
    /// `$dynamicAnchor`, `anchor` names it and the outermost resource of the dynamic scope that
    /// defines the same anchor wins.
    case dynamicReference(initial: Int, anchor: Int?)
    case unevaluatedItems(Int)
    case unevaluatedProperties(Int)
}

/// A schema resource: the scope of one `$id` (or the document).
struct SchemaResource: Sendable {
    let uri: String
    /// `$dynamicAnchor`s it defines: anchor number → node.
    var dynamicAnchors: [Int: Int] = [:]
}
