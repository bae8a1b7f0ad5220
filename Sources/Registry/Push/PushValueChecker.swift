/// Checks Live Activity values against a published schema before they are sent, because the
/// device reports nothing: ActivityKit decodes `content-state` with `JSONDecoder`, and a wrong
/// type or a missing non-optional field makes the update fail silently for the sender.
public enum PushValueChecker {
    /// Checks `contentState` (and `attributes`, which only a start carries) against `schema`.
    ///
    /// Severity follows what happens on the device and in journeys: undeclared keys are
    /// warnings (ActivityKit ignores them); a content field named in the root `required` list is
    /// a warning when missing (a root `required` never makes content mandatory in journeys, yet
    /// the app may fail to decode without it); a field of `attributes.required` missing, `""`
    /// or `null` at start is an error. Without an `attributes` section the attributes are a free
    /// name/value list and are not checked. Composition keywords (`allOf`, `anyOf`, `oneOf`,
    /// `not`), `prefixItems` and tuple `items` are not checked.
    public static func check(
        _ schema: SchemaDocument, event: LiveActivityEvent, contentState: JSONObject, attributes: JSONObject?
    ) -> PushValueCheck {
        var walk = ValueWalk(document: schema)
        for name in ValueWalk.missing(schema.root.requiredNames, in: contentState) {
            walk.problems.append(
                .warning(
                    JSONPathComponent.render([.key(name)], prefix: "content-state"),
                    "is missing; the schema's required list says the app's ContentState may not decode without it"))
        }
        let checkedContent = walk.checkMembers(
            of: contentState, properties: schema.contentProperties,
            additionalProperties: schema.root["additionalProperties"], at: "content-state")
        guard event == .start else {
            if attributes != nil { walk.problems.append(attributesOnlyAtStart) }
            return PushValueCheck(problems: walk.problems, contentState: checkedContent, attributes: nil)
        }
        guard let properties = schema.attributesProperties else {
            return PushValueCheck(problems: walk.problems, contentState: checkedContent, attributes: attributes)
        }
        let given = attributes ?? JSONObject()
        for name in ValueWalk.missing(schema.attributesRequired, in: given, emptyCounts: true) {
            let path = JSONPathComponent.render([.key(name)], prefix: "attributes")
            walk.problems.append(.error(path, "is required at start and must not be empty"))
        }
        let checkedAttributes = walk.checkMembers(
            of: given, properties: properties,
            additionalProperties: schema.root["attributes"]?.objectValue?["additionalProperties"], at: "attributes")
        return PushValueCheck(
            problems: walk.problems, contentState: checkedContent, attributes: attributes == nil ? nil : checkedAttributes)
    }

    /// Attributes are fixed for an activity's life: ActivityKit keeps the values of the start
    /// and ignores any sent later, so sending them on update or end is a mistake worth stopping.
    static let attributesOnlyAtStart = PushProblem.error(
        "attributes", "attributes are only sent at start; an update or end cannot change them")
}

/// The outcome of a value check.
public struct PushValueCheck: Sendable, Equatable {
    public let problems: [PushProblem]
    /// The content state as the device should receive it: RFC 3339 text in `Date` fields
    /// converted to seconds since 2001-01-01T00:00:00Z, everything else as given.
    public let contentState: JSONObject
    /// The attributes converted the same way; nil when none were given or the event is not a start.
    public let attributes: JSONObject?

    /// Valid means no error-severity problem: warnings never block a push.
    public var valid: Bool { problems.hasNoErrors }

    /// The API rendering: `{"valid", "problems": [{"path", "message", "severity"}]}`.
    public var json: JSONValue {
        ["valid": .bool(valid), "problems": .array(problems.map(\.json))]
    }
}
