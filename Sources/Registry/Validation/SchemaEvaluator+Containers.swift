/// The keywords of arrays and objects. Each records the items or members it evaluated in
/// `result`, for `unevaluatedItems` and `unevaluatedProperties` (which run last in a node).
/// Every member or item a keyword visits takes a unit of budget, so a wide value under many
/// applicators ends exhausted rather than taking time the budget did not count.
extension SchemaEvaluator {
    mutating func checkArray(
        _ items: [JSONValue], _ check: SchemaCheck, _ context: KeywordContext, into out: inout EvaluationOutput,
        result: inout Evaluated
    ) {
        let path = context.path
        switch check {
        case .minItems(let minimum) where items.count < minimum:
            context.fail("must have at least \(minimum) items, not \(items.count)", into: &out)
        case .maxItems(let maximum) where items.count > maximum:
            context.fail("must have at most \(maximum) items, not \(items.count)", into: &out)
        case .uniqueItems:
            checkUnique(items, context, into: &out)
        case .prefixItems(let nodes):
            for (index, node) in zip(items.indices, nodes) where !exhausted {
                child(node, items[index], at: path + [.index(index)], context, whenFalse: "must not be present: the schema forbids an item here", into: &out)
                result.items.insert(index)
            }
        case .items(let node, let start) where items.count > start:
            if schema.nodes[node].isFalse {
                context.fail("must have at most \(start) items, not \(items.count) (\(context.keyword.name) is false)", into: &out)
                return
            }
            for index in start..<items.count where !exhausted {
                _ = evaluate(node, items[index], at: path + [.index(index)], into: &out)
                result.items.insert(index)
            }
        case .contains(let node, let minimum, let maximum):
            var matches = 0
            for (index, item) in items.enumerated() where !exhausted {
                var scratch = EvaluationOutput()
                if evaluate(node, item, at: path + [.index(index)], into: &scratch).valid {
                    matches += 1
                    result.items.insert(index)
                }
            }
            if matches < minimum {
                context.fail(
                    minimum == 1
                        ? "must contain an item that matches the contains schema"
                        : "must contain at least \(minimum) items that match the contains schema, not \(matches)",
                    into: &out)
            }
            if let maximum, matches > maximum {
                context.fail("must contain at most \(maximum) items that match the contains schema, not \(matches)", into: &out)
            }
        case .unevaluatedItems(let node):
            for index in items.indices where spend() && !result.items.contains(index) {
                child(
                    node, items[index], at: path + [.index(index)], context,
                    whenFalse: "is not allowed: no keyword of the schema evaluates this item (unevaluatedItems is false)", into: &out)
            }
            for index in items.indices { result.items.insert(index) }
        default:
            break
        }
    }

    /// Items compared pairwise by JSON value (numbers by value, members in any order); each
    /// comparison takes a unit of budget.
    private mutating func checkUnique(_ items: [JSONValue], _ context: KeywordContext, into out: inout EvaluationOutput) {
        for later in items.indices {
            for earlier in 0..<later {
                guard spend() else { return }
                if items[earlier].isSameJSON(as: items[later]) {
                    context.fail("must not contain duplicate items: items \(earlier) and \(later) are equal", into: &out)
                    return
                }
            }
        }
    }

    mutating func checkObject(
        _ object: JSONObject, _ instance: JSONValue, _ check: SchemaCheck, _ context: KeywordContext,
        into out: inout EvaluationOutput, result: inout Evaluated
    ) {
        let path = context.path
        // Looking a name up scans the members, so a lookup costs in proportion to their number.
        let lookup = 1 + object.count >> 4
        switch check {
        case .required(let names):
            for name in names where spend(lookup) && object[name] == nil { context.fail("is required", at: path + [.key(name)], into: &out) }
        case .minProperties(let minimum) where object.count < minimum:
            context.fail("must have at least \(minimum) properties, not \(object.count)", into: &out)
        case .maxProperties(let maximum) where object.count > maximum:
            context.fail("must have at most \(maximum) properties, not \(object.count)", into: &out)
        case .properties(let byName):
            for (index, member) in object.members.enumerated() where spend() {
                guard let node = byName[ExactName(member.key)] else { continue }
                child(node, member.value, at: path + [.key(member.key)], context, whenFalse: "must not be present: the schema forbids this property", into: &out)
                result.properties.insert(index)
            }
        case .patternProperties(let patterns):
            for (index, member) in object.members.enumerated() where spend() {
                for (regex, node) in patterns where matches(regex, member.key) {
                    child(node, member.value, at: path + [.key(member.key)], context, whenFalse: "must not be present: the schema forbids a property with this name", into: &out)
                    result.properties.insert(index)
                }
            }
        case .additionalProperties(let node, let declared, let patterns):
            for (index, member) in object.members.enumerated() where spend() {
                if declared.contains(ExactName(member.key)) || patterns.contains(where: { matches($0, member.key) }) { continue }
                child(
                    node, member.value, at: path + [.key(member.key)], context,
                    whenFalse: "is not allowed: the schema does not declare this property (additionalProperties is false)", into: &out)
                result.properties.insert(index)
            }
        case .propertyNames(let node):
            for member in object.members where !exhausted {
                var scratch = EvaluationOutput()
                if !evaluate(node, .string(member.key), at: path + [.key(member.key)], into: &scratch).valid {
                    let reason = schema.nodes[node].isFalse ? "the schema allows no properties" : scratch.failures.first?.message ?? ""
                    context.fail("is not an allowed property name: \(reason)", at: path + [.key(member.key)], into: &out)
                }
            }
        case .dependentRequired(let dependencies):
            for (name, needed) in dependencies where spend(lookup) && object[name] != nil {
                for other in needed where spend(lookup) && object[other] == nil {
                    context.fail("is required when \(ClientText.quoted(name)) is present", at: path + [.key(other)], into: &out)
                }
            }
        case .dependentSchemas(let dependencies):
            for (name, node) in dependencies where spend(lookup) && object[name] != nil {
                result.merge(evaluate(node, instance, at: path, into: &out))
            }
        case .unevaluatedProperties(let node):
            for (index, member) in object.members.enumerated() where spend() && !result.properties.contains(index) {
                child(
                    node, member.value, at: path + [.key(member.key)], context,
                    whenFalse: "is not allowed: no keyword of the schema evaluates this property (unevaluatedProperties is false)",
                    into: &out)
            }
            for index in object.members.indices { result.properties.insert(index) }
        default:
            break
        }
    }

    /// Whether a pattern matches a name; a pattern that runs out of budget counts as no match
    /// and marks the outcome exhausted.
    private mutating func matches(_ regex: ECMARegex, _ text: String) -> Bool {
        guard let found = regex.search(text, budget: &budget) else {
            exhausted = true
            return false
        }
        return found
    }
}
