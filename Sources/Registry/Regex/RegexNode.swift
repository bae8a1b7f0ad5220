/// A parsed ECMA-262 pattern. Only what decides whether a pattern matches survives parsing:
/// groups keep no capture slot and lazy quantifiers are greedy ones, because `pattern` asks a
/// yes/no question.
indirect enum RegexNode: Sendable {
    case empty
    /// One code point. Stored as a number because `\uD800` is a valid pattern that names a
    /// lone surrogate, which no `Unicode.Scalar` (and so no text) can hold.
    case codePoint(UInt32)
    /// `.`: any code point except the four line terminators.
    case anyButLineTerminator
    case set(RegexScalarSet)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `max` nil means unbounded.
    case repetition(RegexNode, min: Int, max: Int?)
    case assertion(RegexAssertion)
    case lookaround(RegexNode, behind: Bool, negated: Bool)
    /// `\1` or `\k<name>`, resolved to a group number. Parsed so that `format: regex` knows the
    /// pattern is valid; never compiled, since no automaton matches it in linear time.
    case backreference(Int)

    var containsBackreference: Bool {
        switch self {
        case .backreference: true
        case .sequence(let nodes), .alternation(let nodes): nodes.contains { $0.containsBackreference }
        case .repetition(let node, _, _), .lookaround(let node, _, _): node.containsBackreference
        default: false
        }
    }
}

enum RegexAssertion: Sendable {
    case inputStart, inputEnd, wordBoundary, notWordBoundary
}
