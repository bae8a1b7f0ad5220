/// Evaluates a value against the compiled graph. Every node and keyword evaluated takes one
/// unit of budget (patterns take their own steps); when it runs out, evaluation stops and the
/// outcome is marked exhausted. A reference that comes back to the same node at the same value
/// location without a step into the value is a loop and fails instead of recursing forever.
struct SchemaEvaluator {
    let schema: CompiledSchema
    let options: ValidationOptions
    var budget: Int
    var exhausted = false
    /// The schema resources entered, outermost first: `$dynamicRef`'s dynamic scope.
    private var dynamicScope: [Int] = []
    /// (node, value depth) of the references being evaluated: a repeat is a loop.
    private var activeReferences: Set<UInt64> = []
    private var depth = 0

    init(schema: CompiledSchema, options: ValidationOptions, budget: Int) {
        self.schema = schema
        self.options = options
        self.budget = budget
    }

    /// Takes `units` of budget; false (and exhausted) when there is not enough.
    mutating func spend(_ units: Int = 1) -> Bool {
        guard !exhausted, budget >= units else {
            exhausted = true
            budget = max(budget, 0)
            return false
        }
        budget -= units
        return true
    }

    mutating func evaluate(_ index: Int, _ instance: JSONValue, at path: [JSONPathComponent], into out: inout EvaluationOutput) -> Evaluated {
        var result = Evaluated()
        guard spend() else { return result }
        let node = schema.nodes[index]
        if node.isFalse {
            out.failures.append(
                ValidationFailure(instancePath: path, keyword: "false", schemaPath: node.path, message: "is not allowed here: the schema at this place is false", swiftType: nil))
            result.valid = false
            return result
        }
        guard depth < schema.limits.maxEvaluationDepth else {
            exhausted = true
            return result
        }
        depth += 1
        let entersResource = dynamicScope.last != node.resource
        if entersResource { dynamicScope.append(node.resource) }
        let before = out.failures.count
        for keyword in node.keywords {
            guard spend() else { break }
            apply(keyword, of: node, to: instance, at: path, into: &out, result: &result)
        }
        if entersResource { dynamicScope.removeLast() }
        depth -= 1
        result.valid = out.failures.count == before
        return result
    }

    private mutating func apply(
        _ keyword: SchemaKeyword, of node: SchemaNode, to instance: JSONValue, at path: [JSONPathComponent],
        into out: inout EvaluationOutput, result: inout Evaluated
    ) {
        let context = KeywordContext(keyword: keyword, node: node, path: path)
        switch keyword.check {
        case .types(let names):
            if !names.contains(where: { instance.hasSchemaType($0) }) {
                context.fail(SchemaMessages.type(names, instance), into: &out)
            }
        case .enumeration(let options):
            guard spend(options.count) else { return }
            if !options.contains(where: { $0.isSameJSON(as: instance) }) { context.fail(SchemaMessages.oneOfValues(options), into: &out) }
        case .constant(let value):
            if !value.isSameJSON(as: instance) { context.fail("must be \(SchemaMessages.shown(value))", into: &out) }
        case .minLength, .maxLength, .pattern, .format:
            guard case .string(let text) = instance else { return }
            checkString(text, keyword.check, context, into: &out)
        case .minimum, .maximum, .exclusiveMinimum, .exclusiveMaximum, .multipleOf:
            guard case .number(let lexeme) = instance else { return }
            checkNumber(lexeme, keyword.check, context, into: &out)
        case .minItems, .maxItems, .uniqueItems, .prefixItems, .items, .contains, .unevaluatedItems:
            guard case .array(let items) = instance else { return }
            checkArray(items, keyword.check, context, into: &out, result: &result)
        case .minProperties, .maxProperties, .required, .properties, .patternProperties, .additionalProperties,
            .propertyNames, .dependentRequired, .dependentSchemas, .unevaluatedProperties:
            guard case .object(let object) = instance else { return }
            checkObject(object, instance, keyword.check, context, into: &out, result: &result)
        case .allOf, .anyOf, .oneOf, .not, .conditional, .reference, .dynamicReference:
            applyInPlace(keyword.check, to: instance, context, into: &out, result: &result)
        }
    }

    // MARK: - Subschemas

    /// Evaluates a child at a deeper location (an item or member). A `false` child fails with
    /// the parent keyword's own message, which says why the value is not allowed.
    mutating func child(
        _ index: Int, _ value: JSONValue, at path: [JSONPathComponent], _ context: KeywordContext,
        whenFalse message: String, into out: inout EvaluationOutput
    ) {
        if schema.nodes[index].isFalse {
            context.fail(message, at: path, into: &out)
        } else {
            _ = evaluate(index, value, at: path, into: &out)
        }
    }

    /// Follows a reference in place, unless it would revisit a reference being evaluated at the
    /// same location.
    mutating func follow(
        _ target: Int, _ instance: JSONValue, _ context: KeywordContext, into out: inout EvaluationOutput, result: inout Evaluated
    ) {
        let key = UInt64(target) << 32 | UInt64(context.path.count)
        guard activeReferences.insert(key).inserted else {
            context.fail("cannot be checked: the schema refers back to itself here without a step into the value", into: &out)
            return
        }
        result.merge(evaluate(target, instance, at: context.path, into: &out))
        activeReferences.remove(key)
    }

    /// The target of a `$dynamicRef`: the outermost resource in the dynamic scope that defines
    /// the anchor, else the statically resolved one.
    func dynamicTarget(initial: Int, anchor: Int?) -> Int {
        guard let anchor else { return initial }
        for resource in dynamicScope {
            if let node = schema.resources[resource].dynamicAnchors[anchor] { return node }
        }
        return initial
    }
}

/// The keyword being applied, for building failures.
struct KeywordContext {
    let keyword: SchemaKeyword
    let node: SchemaNode
    let path: [JSONPathComponent]

    func fail(_ message: String, at location: [JSONPathComponent]? = nil, into out: inout EvaluationOutput) {
        out.failures.append(failure(message, at: location))
    }

    func failure(_ message: String, at location: [JSONPathComponent]? = nil) -> ValidationFailure {
        ValidationFailure(
            instancePath: location ?? path, keyword: keyword.name, schemaPath: keyword.path, message: message, swiftType: node.swiftType)
    }
}

extension JSONValue {
    /// JSON Schema's instance types: an integer is any number with a zero fraction (`3.0` too).
    func hasSchemaType(_ type: String) -> Bool {
        switch self {
        case .null: type.hasSameBytes(as: "null")
        case .bool: type.hasSameBytes(as: "boolean")
        case .number: type.hasSameBytes(as: "number") || (type.hasSameBytes(as: "integer") && isIntegral)
        case .string: type.hasSameBytes(as: "string")
        case .array: type.hasSameBytes(as: "array")
        case .object: type.hasSameBytes(as: "object")
        }
    }
}
