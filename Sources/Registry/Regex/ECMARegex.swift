/// A `pattern` as JSON Schema defines it: ECMA-262 syntax and semantics, matched anywhere in the
/// string (unanchored), over Unicode scalars.
///
/// Interface only for now: this stub compiles with Swift's `Regex` on every search; the real
/// engine replaces the bodies, not the signatures.
public struct ECMARegex: Sendable {
    public let pattern: String

    /// Compiles `pattern`; a pattern that is not valid ECMA-262 (or uses what the engine refuses)
    /// throws with a message that says why.
    public init(_ pattern: String) throws(ECMARegexError) {
        guard (try? Regex(pattern)) != nil else { throw ECMARegexError(message: "not a pattern that can be compiled") }
        self.pattern = pattern
    }

    /// Whether the pattern matches somewhere in `text`. Each step of the engine takes one unit
    /// of `budget`; nil when the budget ran out before an answer.
    public func search(_ text: String, budget: inout Int) -> Bool? {
        guard let regex = try? Regex(pattern).matchingSemantics(.unicodeScalar) else { return false }
        budget -= 1
        return text.contains(regex)
    }
}

/// Why a pattern was refused.
public struct ECMARegexError: Error, Sendable, Equatable {
    public let message: String
    public init(message: String) { self.message = message }
}
