/// The validation keywords of one value's own kind: lengths and patterns of strings, bounds of
/// numbers, item counts of arrays.
extension ValueWalk {
    /// Lengths count Unicode scalars: JSON Schema counts characters as RFC 8259 does (code
    /// points), not grapheme clusters (👨‍🍳 is 3, not 1) and not UTF-8 bytes.
    ///
    /// `pattern` is compiled with Swift's `Regex`, whose syntax covers the ECMA-262 subset
    /// schemas use; it matches anywhere in the string (unanchored, as JSON Schema says) on
    /// Unicode scalars. A pattern `Regex` cannot compile is reported as unchecked, not failed.
    mutating func checkString(_ string: String, against schema: JSONObject, at path: String) {
        let length = string.unicodeScalars.count
        if let minimum = schema.count("minLength"), length < minimum {
            problems.append(.error(path, "must be at least \(minimum) characters long, not \(length)"))
        }
        if let maximum = schema.count("maxLength"), length > maximum {
            problems.append(.error(path, "must be at most \(maximum) characters long, not \(length)"))
        }
        guard case .string(let pattern) = schema["pattern"] else { return }
        guard let regex = try? Regex(pattern).matchingSemantics(.unicodeScalar) else {
            problems.append(.warning(path, "not checked against pattern \(pattern): it is not a pattern Swift can compile"))
            return
        }
        if !string.contains(regex) {
            problems.append(.error(path, "must match the pattern \(pattern)"))
        }
    }

    mutating func checkNumber(_ lexeme: String, against schema: JSONObject, at path: String) {
        let number = JSONNumber(lexeme)
        if let minimum = schema.number("minimum"), number < minimum {
            problems.append(.error(path, "must be at least \(minimum.lexeme), not \(lexeme)"))
        }
        if let maximum = schema.number("maximum"), maximum < number {
            problems.append(.error(path, "must be at most \(maximum.lexeme), not \(lexeme)"))
        }
        if let minimum = schema.number("exclusiveMinimum"), !(minimum < number) {
            problems.append(.error(path, "must be greater than \(minimum.lexeme), not \(lexeme)"))
        }
        if let maximum = schema.number("exclusiveMaximum"), !(number < maximum) {
            problems.append(.error(path, "must be less than \(maximum.lexeme), not \(lexeme)"))
        }
        if let step = schema.number("multipleOf"), number.isMultiple(of: step) == false {
            problems.append(.error(path, "must be a multiple of \(step.lexeme), not \(lexeme)"))
        }
    }

    mutating func checkCount(_ count: Int, against schema: JSONObject, at path: String) {
        if let minimum = schema.count("minItems"), count < minimum {
            problems.append(.error(path, "must have at least \(minimum) items, not \(count)"))
        }
        if let maximum = schema.count("maxItems"), count > maximum {
            problems.append(.error(path, "must have at most \(maximum) items, not \(count)"))
        }
    }
}
