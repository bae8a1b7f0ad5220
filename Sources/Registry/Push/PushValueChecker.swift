/// Checks Live Activity values against a published schema before they are sent, because the
/// device reports nothing: ActivityKit decodes `content-state` with `JSONDecoder`, and a wrong
/// type or a missing non-optional field makes the update fail silently for the sender.
///
/// The verdict is JSON Schema's, from the schema compiled once (every keyword of its dialect),
/// on the values as the device receives them, plus what the device's decoder refuses although
/// JSON Schema allows it:
/// - a content field the root `required` lists is an error when missing: the app cannot decode
///   that update (a schema without a root `required` leaves every content field optional);
/// - a number a `Double` cannot hold (`1e400`) fails any numeric field;
/// - a `format` mismatch is a warning (JSON Schema makes `format` an annotation), except where
///   the app decodes the text into a `UUID` or `Date` (`x-swift-type`), or the schema asserts
///   formats (`"x-assert-formats": true` at its root);
/// - the decoders of `Decimal`, `Float`, `URL`, `ClosedRange` and `Range` refuse values no
///   keyword describes (`SwiftDecoding`);
/// - undeclared keys are warnings (ActivityKit ignores them) unless the schema refuses them;
/// - at start, a field of `attributes.required` missing, `""` or `null` is an error.
/// Without an `attributes` section the attributes are a free name/value list and are not checked.
public enum PushValueChecker {
    /// Steps one check may spend on the content state and attributes together (each keyword
    /// evaluated and each step of a pattern is one): ample for any schema of 64 KB against a
    /// body of 1 MB written in good faith, and a bound on what a hostile pair can cost.
    public static let stepBudget = 4_000_000

    /// The `x-swift-type`s whose decoder refuses text that does not match the field's `format`.
    /// (`URL(string:)` percent-encodes most text, so a `URL` field's own rule is in
    /// `SwiftDecoding`: a mismatch with `uri` alone is a warning there.)
    static let decodedFormats = ["UUID", "Date"]

    /// Checks `contentState` (and `attributes`, which only a start carries) against `schema`.
    public static func check(
        _ schema: SchemaDocument, event: LiveActivityEvent, contentState: JSONObject, attributes: JSONObject?
    ) -> PushValueCheck {
        var walk = ValueWalk(document: schema)
        let content = walk.convert(.object(contentState), against: .object(schema.root), at: [], prefix: contentPrefix)
            .objectValue ?? contentState
        guard case .success(let compiled) = schema.compiled else {
            return PushValueCheck(
                problems: walk.problems + [uncompiled(schema)], contentState: content,
                attributes: event == .start ? attributes : nil)
        }
        var verdict = Verdict(compiled: compiled, options: ValidationOptions(assertFormats: schema.assertsFormats))
        verdict.judge(.object(content), embedded: nil, prefix: contentPrefix, walk: walk)
        var problems = verdict.take() + walk.problems
        guard event == .start else {
            if attributes != nil { problems.append(attributesOnlyAtStart) }
            return PushValueCheck(problems: problems, contentState: content, attributes: nil)
        }
        guard schema.attributesProperties != nil else {
            return PushValueCheck(problems: problems, contentState: content, attributes: attributes)
        }
        let given = attributes ?? JSONObject()
        var attributesWalk = ValueWalk(document: schema)
        let converted = attributesWalk.convert(
            .object(given), against: schema.root[SchemaDocument.attributesKeyword], at: [], prefix: attributesPrefix
        ).objectValue ?? given
        for name in missing(schema.attributesRequired, in: given) {
            let path = JSONPathComponent.render([.key(name)], prefix: attributesPrefix)
            problems.append(.error(path, "is required at start and must not be empty"))
        }
        verdict.judge(.object(converted), embedded: SchemaDocument.attributesKeyword, prefix: attributesPrefix, walk: attributesWalk)
        return PushValueCheck(
            problems: problems + verdict.take() + attributesWalk.problems, contentState: content,
            attributes: attributes == nil ? nil : converted)
    }

    static let contentPrefix = "content-state"
    static let attributesPrefix = "attributes"

    /// Attributes are fixed for an activity's life: ActivityKit keeps the values of the start
    /// and ignores any sent later, so sending them on update or end is a mistake worth stopping.
    static let attributesOnlyAtStart = PushProblem.error(
        "attributes", "attributes are only sent at start; an update or end cannot change them")

    /// The names of `attributes.required` that `object` lacks or leaves `""` or `null`: a
    /// start needs every one of them filled.
    static func missing(_ names: [String], in object: JSONObject) -> [String] {
        names.filter { name in
            guard let value = object[name] else { return true }
            return value == .string("") || value.isNull
        }
    }

    /// A stored version whose schema a later rule refuses to compile: its values cannot be
    /// checked, and saying so beats calling them valid.
    private static func uncompiled(_ schema: SchemaDocument) -> PushProblem {
        guard case .failure(let error) = schema.compiled else { preconditionFailure("the schema compiled") }
        return .error(
            contentPrefix,
            "cannot be checked: the schema no longer compiles (\(JSONPathComponent.render(pointer: error.path, prefix: "jsonSchema")): \(error.message))"
        )
    }
}

/// The compiled schema's findings on the converted values, in the severities the device implies.
private struct Verdict {
    let compiled: CompiledSchema
    let options: ValidationOptions
    var budget = PushValueChecker.stepBudget
    var problems: [PushProblem] = []

    init(compiled: CompiledSchema, options: ValidationOptions) {
        self.compiled = compiled
        self.options = options
    }

    /// The problems found since the last call.
    mutating func take() -> [PushProblem] {
        defer { problems = [] }
        return problems
    }

    mutating func judge(_ value: JSONValue, embedded: String?, prefix: String, walk: ValueWalk) {
        let outcome = compiled.validate(value, embedded: embedded, options: options, budget: &budget)
        for failure in outcome.failures {
            let path = JSONPathComponent.render(failure.instancePath, prefix: prefix)
            if walk.unreadableDates.contains(ExactName(path)) { continue }
            // The start's own rule on attributes.required says it already, with "" and null.
            if embedded != nil, failure.keyword == "required", failure.instancePath.count == 1 { continue }
            problems.append(.error(path, message(for: failure, embedded: embedded)))
        }
        for mismatch in outcome.formatMismatches {
            let path = JSONPathComponent.render(mismatch.instancePath, prefix: prefix)
            if walk.unreadableDates.contains(ExactName(path)) { continue }
            if let swiftType = mismatch.swiftType, PushValueChecker.decodedFormats.containsExactly(swiftType) {
                problems.append(.error(path, "\(mismatch.message): the app's \(swiftType) field cannot decode it"))
            } else {
                problems.append(.warning(path, "\(mismatch.message) (format is not asserted, so the value is accepted)"))
            }
        }
        Self.overflowingNumbers(in: value, at: [], prefix: prefix, into: &problems)
        if outcome.exhausted {
            problems.append(
                .error(
                    prefix,
                    "not fully checked: checking these values against the schema takes more than \(PushValueChecker.stepBudget) steps; send fewer or shorter values"
                ))
        }
    }

    /// A content field of the root `required` is one the app's ContentState needs.
    private func message(for failure: ValidationFailure, embedded: String?) -> String {
        if embedded == nil, failure.keyword == "required", failure.instancePath.count == 1 {
            return "is required: the app's ContentState cannot decode an update without it"
        }
        return failure.message
    }

    /// `JSONDecoder` refuses the whole text when a number is beyond a `Double`'s range or rounds
    /// to zero from a non-zero value, wherever it stands, whatever the schema's bounds say.
    private static func overflowingNumbers(
        in value: JSONValue, at path: [JSONPathComponent], prefix: String, into problems: inout [PushProblem]
    ) {
        switch value {
        case .number(let lexeme) where JSONNumber(lexeme).double.isInfinite:
            problems.append(
                .error(
                    JSONPathComponent.render(path, prefix: prefix),
                    "is \(lexeme), beyond the range of a 64-bit floating-point number: the app cannot decode it"))
        case .number(let lexeme) where JSONNumber(lexeme).double == 0 && SwiftDecoding.hasNonZeroDigit(lexeme):
            problems.append(
                .error(
                    JSONPathComponent.render(path, prefix: prefix),
                    "is \(lexeme), too small for a 64-bit floating-point number (it rounds to zero): the app cannot decode it"))
        case .array(let elements):
            for (i, element) in elements.enumerated() {
                overflowingNumbers(in: element, at: path + [.index(i)], prefix: prefix, into: &problems)
            }
        case .object(let object):
            for member in object.members {
                overflowingNumbers(in: member.value, at: path + [.key(member.key)], prefix: prefix, into: &problems)
            }
        default:
            break
        }
    }
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
