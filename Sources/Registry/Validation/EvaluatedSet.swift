/// The member indices of an object, or the item indices of an array, that keywords evaluated:
/// the annotations `unevaluatedProperties` and `unevaluatedItems` read. Indices rather than
/// keys, because every in-place applicator sees the same instance.
struct EvaluatedSet: Sendable {
    private var words: [UInt64] = []

    mutating func insert(_ index: Int) {
        let word = index >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] |= 1 << UInt64(index & 63)
    }

    func contains(_ index: Int) -> Bool {
        let word = index >> 6
        return word < words.count && words[word] & (1 << UInt64(index & 63)) != 0
    }

    mutating func formUnion(_ other: EvaluatedSet) {
        if other.words.count > words.count { words.append(contentsOf: repeatElement(0, count: other.words.count - words.count)) }
        for (index, word) in other.words.enumerated() { words[index] |= word }
    }
}

/// What evaluating one node against one value found: whether it is valid and, when it is,
/// which members and items it evaluated.
struct Evaluated {
    var valid = true
    var properties = EvaluatedSet()
    var items = EvaluatedSet()

    /// Takes the annotations of a valid in-place subschema (an invalid one's are dropped).
    mutating func merge(_ other: Evaluated) {
        guard other.valid else { return }
        properties.formUnion(other.properties)
        items.formUnion(other.items)
    }
}

/// Where failures and format mismatches collect; applicators that try a subschema (anyOf,
/// oneOf, not, if, contains, propertyNames) give it a scratch output and keep what applies.
struct EvaluationOutput {
    var failures: [ValidationFailure] = []
    var formatMismatches: [ValidationFailure] = []
}
