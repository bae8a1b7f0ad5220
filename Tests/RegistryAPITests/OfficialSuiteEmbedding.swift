import Registry

/// Turns one group schema `S` of the official JSON-Schema-Test-Suite into a Live Activity schema
/// the registry publishes, `{"type":"object","properties":{"v": S}}`, whose content field `v`
/// means what `S` means: a value `d` satisfies `S` exactly when `{"v": d}` satisfies the embedding.
///
/// Two rewrites keep the meaning:
/// - `S` sits at `#/properties/v` instead of `#`, so each `$ref`/`$dynamicRef` that is a JSON
///   pointer into the document (`#`, `#/…`) gets that prefix. Only where the reference resolves
///   against the document itself: below a `$id` the base is that resource, whose pointers
///   stay as they are. Values of `const`, `enum`, `default` and `examples` are data, never
///   rewritten (the suite checks that a `{"$ref": …}` inside `enum` is not a reference).
/// - A content field must be an object schema (a registry shape rule), so a boolean `S` is
///   embedded as `{"allOf": [S]}`, which accepts the same values.
enum OfficialSuiteEmbedding {
    static let field = "v"

    /// The Live Activity schema that holds `schema` as the content field `v`. A draft 7 schema
    /// is embedded in a draft 7 document (the dialect is the root's `$schema`); `assertFormats`
    /// sets the registry's root keyword that makes `format` an assertion.
    static func embed(_ schema: JSONValue, draft7: Bool = false, assertFormats: Bool = false) -> JSONValue {
        let property: JSONValue
        switch schema {
        case .bool: property = ["allOf": [schema]]
        default: property = relocated(schema, rewriting: true, draft7: draft7)
        }
        var root: JSONObject = ["type": "object", "properties": .object(JSONObject([(key: field, value: property)]))]
        if draft7 { root["$schema"] = .string(draft7URI) }
        if assertFormats { root[SchemaDocument.assertFormatsKeyword] = true }
        return .object(root)
    }

    static let draft7URI = "http://json-schema.org/draft-07/schema#"

    /// Keywords whose value is a schema or an array of schemas.
    private static let schemaListKeywords = ["allOf", "anyOf", "oneOf", "prefixItems", "items"]
    /// Keywords whose value maps names to schemas (a name is never a keyword there).
    private static let schemaMapKeywords = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]
    /// Keywords whose value is data.
    private static let dataKeywords = ["const", "enum", "default", "examples"]
    private static let referenceKeywords = ["$ref", "$dynamicRef"]

    private static func relocated(_ schema: JSONValue, rewriting: Bool, draft7: Bool) -> JSONValue {
        guard case .object(let object) = schema else { return schema }
        let rewriting = rewriting && !startsResource(object, draft7: draft7)
        return .object(JSONObject(object.members.map { member in
            (key: member.key, value: relocated(keyword: member.key, member.value, rewriting: rewriting, draft7: draft7))
        }))
    }

    /// Whether the object's `$id` changes the base its references resolve against: not a
    /// draft 7 `$id` that is only a fragment (`#foo` names a location), nor one beside a draft
    /// 7 `$ref` (which ignores its siblings).
    private static func startsResource(_ object: JSONObject, draft7: Bool) -> Bool {
        guard let id = object["$id"]?.stringValue else { return false }
        guard draft7 else { return true }
        return !id.hasBytePrefix("#") && object["$ref"] == nil
    }

    private static func relocated(keyword: String, _ value: JSONValue, rewriting: Bool, draft7: Bool) -> JSONValue {
        if referenceKeywords.containsExactly(keyword) {
            guard rewriting, case .string(let reference) = value else { return value }
            return .string(relocated(reference: reference))
        }
        if dataKeywords.containsExactly(keyword) { return value }
        if schemaMapKeywords.containsExactly(keyword), case .object(let map) = value {
            return .object(JSONObject(map.members.map { (key: $0.key, value: relocated($0.value, rewriting: rewriting, draft7: draft7)) }))
        }
        if schemaListKeywords.containsExactly(keyword), case .array(let schemas) = value {
            return .array(schemas.map { relocated($0, rewriting: rewriting, draft7: draft7) })
        }
        // Every other object is a schema (`not`, `if`, `additionalProperties`, …) or sits
        // under a keyword the dialect does not know, where a JSON pointer may still reach a
        // schema whose own references then need the prefix too.
        return relocated(value, rewriting: rewriting, draft7: draft7)
    }

    /// `#` → `#/properties/v`, `#/$defs/a` → `#/properties/v/$defs/a`; anchors (`#name`) and
    /// URIs stay.
    static func relocated(reference: String) -> String {
        let prefix = "#/properties/\(field)"
        if reference.hasSameBytes(as: "#") { return prefix }
        if reference.hasBytePrefix("#/") { return prefix + String(reference.unicodeScalars.dropFirst()) }
        return reference
    }
}
