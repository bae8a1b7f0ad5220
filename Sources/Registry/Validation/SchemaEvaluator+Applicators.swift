/// The applicators that evaluate subschemas against the same value, merging the annotations
/// of the subschemas that hold.
extension SchemaEvaluator {
    /// How far a failed branch is from matching, to pick the one worth showing: a branch whose
    /// `type` does not even fit the value is farther than any number of other failures (a
    /// branch fails only at its own location or deeper, so an equal depth is the same place).
    private static func distance(_ output: EvaluationOutput, at path: [JSONPathComponent]) -> Int {
        let wrongType = output.failures.contains { $0.keyword.hasSameBytes(as: "type") && $0.instancePath.count == path.count }
        return output.failures.count + (wrongType ? 1_000_000 : 0)
    }

    /// The applicators that evaluate subschemas against the same value. Failures of a branch
    /// that is only tried (anyOf, oneOf) are reported for the closest branch, after the
    /// applicator's own failure.
    mutating func applyInPlace(
        _ check: SchemaCheck, to instance: JSONValue, _ context: KeywordContext, into out: inout EvaluationOutput,
        result: inout Evaluated
    ) {
        let path = context.path
        switch check {
        case .allOf(let nodes):
            for node in nodes where !exhausted { result.merge(evaluate(node, instance, at: path, into: &out)) }
        case .anyOf(let nodes), .oneOf(let nodes):
            var matched: [Int] = []
            var closest: EvaluationOutput?
            var kept = Evaluated()
            for (index, node) in nodes.enumerated() where !exhausted {
                var scratch = EvaluationOutput()
                let evaluated = evaluate(node, instance, at: path, into: &scratch)
                if evaluated.valid {
                    matched.append(index)
                    kept.merge(evaluated)
                    out.formatMismatches += scratch.formatMismatches
                } else if closest == nil || Self.distance(scratch, at: path) < Self.distance(closest!, at: path) {
                    closest = scratch
                }
            }
            guard !exhausted else { return }
            if case .anyOf = check {
                guard matched.isEmpty else { return result.merge(kept) }
                context.fail("must match at least one of the \(nodes.count) schemas in anyOf", into: &out)
            } else {
                if matched.count == 1 { return result.merge(kept) }
                if matched.count > 1 {
                    let listed = matched.map(String.init).joined(separator: ", ")
                    return context.fail(
                        "must match exactly one of the \(nodes.count) schemas in oneOf, but matches \(matched.count) (\(listed))", into: &out)
                }
                context.fail("must match exactly one of the \(nodes.count) schemas in oneOf, but matches none", into: &out)
            }
            out.failures += closest?.failures ?? []
        case .not(let node):
            var scratch = EvaluationOutput()
            if evaluate(node, instance, at: path, into: &scratch).valid, !exhausted {
                context.fail("must not match the schema in not", into: &out)
            }
        case .conditional(let condition, let then, let otherwise):
            var scratch = EvaluationOutput()
            let evaluated = evaluate(condition, instance, at: path, into: &scratch)
            if evaluated.valid {
                result.merge(evaluated)
                out.formatMismatches += scratch.formatMismatches
            }
            if let branch = evaluated.valid ? then : otherwise, !exhausted {
                result.merge(evaluate(branch, instance, at: path, into: &out))
            }
        case .reference(let target):
            follow(target, instance, context, into: &out, result: &result)
        case .dynamicReference(let initial, let anchor):
            follow(dynamicTarget(initial: initial, anchor: anchor), instance, context, into: &out, result: &result)
        default:
            break
        }
    }
}
