/// The largest payload a schema allows, so publishing can warn when a schema's worst case
/// cannot fit in APNs's 4 KB, and a form can show the budget. Every figure is an upper bound
/// on the compact text `JSONWriter` produces, or nil when the schema sets no bound.
///
/// What counts as bounded:
/// * a string needs `maxLength`, counted at 6 bytes per character (Unicode scalar) plus the
///   quotes: `JSONWriter` writes a control character as `\u00XX`, the longest form; text
///   without control characters takes at most 4 bytes (an emoji) per character;
/// * an array needs `maxItems` and an `items` schema (or `maxItems: 0`);
/// * an object needs `properties`, all counted as present; undeclared keys are not counted
///   (ActivityKit ignores them, the check warns), but an `additionalProperties` schema makes
///   it a dictionary with no bound;
/// * `enum` and `const` count their longest value; booleans 5, null 4;
/// * an integer counts the longer of its bounds (`minimum`, `maximum`, exclusive forms),
///   without them the int64 extremes (`-9223372036854775808`, 20 bytes); a number counts 24,
///   the longest shortest-round-trip `Double` text (`-1.7976931348623157e+308`), which is also
///   what a Swift `Date` field becomes. Numbers of both kinds are passed on as written, and a
///   sender may write a longer lexeme (`3.000`); it carries nothing more to the app, so the
///   bound assumes shortest forms;
/// * a schema without `type`, `enum` or `const`, an unknown type name, an unresolvable or
///   recursive `$ref`: no bound. Composition keywords only narrow a typed schema and are ignored.
public enum PayloadSizeEstimator {
    /// The largest `content-state` object, with every declared content field present.
    public static func maxContentStateBytes(of schema: SchemaDocument) -> Int? {
        Bound(document: schema).objectBytes(
            properties: schema.contentProperties, additionalProperties: schema.root["additionalProperties"], active: [])
    }

    /// The largest `attributes` object; nil also when the schema has no `attributes` section,
    /// since the attributes are then a free name/value list.
    public static func maxAttributesBytes(of schema: SchemaDocument) -> Int? {
        guard let properties = schema.attributesProperties else { return nil }
        return Bound(document: schema).objectBytes(
            properties: properties,
            additionalProperties: schema.root["attributes"]?.objectValue?["additionalProperties"], active: [])
    }

    /// The largest whole start payload, `{"aps": {…}}`, under `attributesType`: the timestamp
    /// at 10 digits (Unix seconds until 2286), `event`, the largest content state and
    /// attributes, and `alert` exactly as given. The alert's texts come from the journey, not
    /// the schema, so they are a parameter: pass the alert a journey uses (`title`, `body`, …),
    /// or nil to count the schema's part alone — every real start has one, since a start needs
    /// a content or title. `stale-date`, `dismissal-date` and `relevance-score` are per-push
    /// options and are not counted; each adds at most 38 bytes with an int64 value.
    public static func worstCaseStartPayloadBytes(
        of schema: SchemaDocument, attributesType: String, alert: JSONObject? = nil
    ) -> Int? {
        guard let contentState = maxContentStateBytes(of: schema), let attributes = maxAttributesBytes(of: schema) else {
            return nil
        }
        let envelope = APSPayload(
            timestamp: 9_999_999_999, event: .start, contentState: JSONObject(), attributesType: attributesType,
            attributes: JSONObject(), alert: alert)
        let emptyObjects = 2 * JSONWriter.bytes(.object(JSONObject())).count
        return JSONWriter.bytes(.object(envelope.json)).count - emptyObjects + contentState + attributes
    }
}

/// The recursive bound; `active` carries the `$ref`s followed on the current path, since a
/// schema that contains itself has no largest value.
///
/// Each reference's bound is remembered: it does not depend on the path that reached it (a
/// cycle through an ancestor is a cycle from the reference itself too), and without the memo
/// definitions that refer to the next one twice would cost 2^depth visits.
private final class Bound {
    let document: SchemaDocument
    private var boundsByReference: [ExactName: Int?] = [:]

    init(document: SchemaDocument) {
        self.document = document
    }

    /// The longest shortest-round-trip `Double` text: `-1.7976931348623157e+308`.
    private static let longestNumberBytes = 24

    func objectBytes(properties: JSONObject?, additionalProperties: JSONValue?, active: Set<ExactName>) -> Int? {
        guard let properties else { return nil }
        if let additionalProperties, case .object = additionalProperties { return nil }
        var total = 2 + max(properties.count - 1, 0)
        for member in properties.members {
            guard let value = bytes(member.value, active: active),
                let sum = add(total, JSONWriter.escapedCount(of: member.key) + 3, value)
            else { return nil }
            total = sum
        }
        return total
    }

    private func bytes(_ schema: JSONValue, active: Set<ExactName>) -> Int? {
        guard case .string(let reference)? = schema.objectValue?["$ref"] else { return unmemoizedBytes(schema, active: active) }
        if let known = boundsByReference[ExactName(reference)] { return known }
        let bound = unmemoizedBytes(schema, active: active)
        boundsByReference[ExactName(reference)] = .some(bound)
        return bound
    }

    private func unmemoizedBytes(_ schema: JSONValue, active: Set<ExactName>) -> Int? {
        let (dereferenced, active) = document.dereference(schema, active: active)
        guard case .object(let schema) = dereferenced else { return nil }
        if case .array(let options) = schema["enum"] { return options.map { JSONWriter.bytes($0).count }.max() }
        if let constant = schema["const"] { return JSONWriter.bytes(constant).count }
        if schema.isSwiftDate { return Self.longestNumberBytes }
        guard let types = schema.schemaTypes, !types.isEmpty else { return nil }
        var largest = 0
        for type in types {
            guard let size = bytes(ofType: type, schema, active: active) else { return nil }
            largest = max(largest, size)
        }
        return largest
    }

    private func bytes(ofType type: String, _ schema: JSONObject, active: Set<ExactName>) -> Int? {
        switch type {
        case "null": return 4
        case "boolean": return 5
        case "number": return Self.longestNumberBytes
        case "integer": return Self.integerBytes(schema)
        case "string": return schema.count("maxLength").flatMap { multiply($0, 6) }.flatMap { add($0, 2) }
        case "object":
            return objectBytes(
                properties: schema["properties"]?.objectValue, additionalProperties: schema["additionalProperties"],
                active: active)
        case "array":
            guard let count = schema.count("maxItems") else { return nil }
            guard count > 0 else { return 2 }
            guard let items = schema["items"], case .object = items, let item = bytes(items, active: active) else {
                return nil
            }
            return multiply(count, item).flatMap { add($0, count - 1, 2) }
        default: return nil
        }
    }

    /// The longer of the two extreme integers the bounds allow, clamped to int64.
    private static func integerBytes(_ schema: JSONObject) -> Int {
        // 2^63: as many digits as Int64.max, and exactly representable, unlike Int64.max.
        let limit = 9_223_372_036_854_775_808.0
        var lower = -limit, upper = limit
        if let minimum = schema.number("minimum") { lower = max(lower, minimum.double.rounded(.up)) }
        if let minimum = schema.number("exclusiveMinimum") { lower = max(lower, minimum.double.rounded(.down) + 1) }
        if let maximum = schema.number("maximum") { upper = min(upper, maximum.double.rounded(.down)) }
        if let maximum = schema.number("exclusiveMaximum") { upper = min(upper, maximum.double.rounded(.up) - 1) }
        func length(_ value: Double) -> Int {
            let clamped = min(max(value, -limit), limit)
            return (clamped < 0 ? 1 : 0) + String(UInt64(clamped.magnitude)).count
        }
        return max(length(lower), length(upper))
    }

    private func add(_ terms: Int...) -> Int? {
        var total = 0
        for term in terms {
            let (sum, overflow) = total.addingReportingOverflow(term)
            if overflow { return nil }
            total = sum
        }
        return total
    }

    private func multiply(_ a: Int, _ b: Int) -> Int? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : product
    }
}
