/// What a compiled schema keeps on the heap, so a cache of compiled schemas can hold itself to
/// a byte budget.
extension CompiledSchema {
    public var heapSize: Int {
        var size = HeapSize.of(nodes) + HeapSize.of(resources) + HeapSize.of(unknownKeywords) + HeapSize.of(embeddedNodes)
        for node in nodes {
            size += HeapSize.of(node.path) + (node.swiftType.map(HeapSize.of) ?? 0) + HeapSize.of(node.keywords)
            for keyword in node.keywords {
                size += HeapSize.of(keyword.name) + HeapSize.of(keyword.path) + Self.heapSize(of: keyword.check)
            }
        }
        for resource in resources { size += HeapSize.of(resource.uri) + HeapSize.of(resource.dynamicAnchors) }
        for unknown in unknownKeywords {
            size += HeapSize.of(unknown.path) + HeapSize.of(unknown.keyword) + (unknown.suggestion.map(HeapSize.of) ?? 0)
        }
        return size
    }

    /// A compiled pattern is counted as its text plus a program of a few words per byte of it:
    /// an estimate, since `ECMARegex` does not say what it keeps.
    private static func heapSize(of regex: ECMARegex) -> Int {
        HeapSize.blockOverhead + HeapSize.of(regex.pattern) + 32 * regex.pattern.utf8.count
    }

    private static func heapSize(of check: SchemaCheck) -> Int {
        switch check {
        case .types(let names): names.reduce(HeapSize.of(names)) { $0 + HeapSize.of($1) }
        case .enumeration(let values): values.reduce(HeapSize.of(values)) { $0 + HeapSize.of($1) }
        case .constant(let value): HeapSize.boxOverhead + HeapSize.of(value)
        case .pattern(let regex): heapSize(of: regex)
        case .format(let name): HeapSize.of(name)
        case .minimum(let n), .maximum(let n), .exclusiveMinimum(let n), .exclusiveMaximum(let n), .multipleOf(let n):
            HeapSize.of(n.lexeme)
        case .prefixItems(let nodes), .allOf(let nodes), .anyOf(let nodes), .oneOf(let nodes): HeapSize.of(nodes)
        case .required(let names): names.reduce(HeapSize.of(names)) { $0 + HeapSize.of($1) }
        case .properties(let byName): byName.keys.reduce(HeapSize.of(byName)) { $0 + HeapSize.of($1.text) }
        case .patternProperties(let patterns): patterns.reduce(HeapSize.of(patterns)) { $0 + heapSize(of: $1.0) }
        case .additionalProperties(_, let declared, let patterns):
            declared.reduce(HeapSize.blockOverhead + declared.capacity * 2 * MemoryLayout<ExactName>.stride) { $0 + HeapSize.of($1.text) }
                + patterns.reduce(HeapSize.of(patterns)) { $0 + heapSize(of: $1) }
        case .dependentRequired(let lists):
            lists.reduce(HeapSize.of(lists)) { total, list in
                list.1.reduce(total + HeapSize.of(list.0) + HeapSize.of(list.1)) { $0 + HeapSize.of($1) }
            }
        case .dependentSchemas(let members): members.reduce(HeapSize.of(members)) { $0 + HeapSize.of($1.0) }
        case .conditional: HeapSize.boxOverhead
        case .minLength, .maxLength, .minItems, .maxItems, .uniqueItems, .items, .contains, .minProperties, .maxProperties,
            .propertyNames, .not, .reference, .dynamicReference, .unevaluatedItems, .unevaluatedProperties:
            0
        }
    }
}
