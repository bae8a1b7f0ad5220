/// A `pattern` as JSON Schema defines it: ECMA-262 syntax and semantics (with the `u` flag:
/// the pattern and the text are read as Unicode scalars), matched anywhere in the string.
///
/// Compiled once into a Thompson automaton and simulated in step, so a search costs at most
/// `2 × instructionCount × (scalars + 1)` steps: `^(a+)+$` cannot backtrack because nothing does.
/// ECMA-262's `\d`, `\w` and `\b` are ASCII; `\s` is its WhiteSpace and LineTerminator.
/// Backreferences are valid syntax (`isValidSyntax`) but refused here: no automaton matches
/// them, and a backtracking fallback is exactly the stall this type exists to prevent.
public struct ECMARegex: Sendable {
    public let pattern: String
    private let programs: [RegexProgram]
    private let sets: [RegexScalarSet]

    /// Compiles `pattern`; a pattern that is not valid ECMA-262, uses a backreference or an
    /// unknown Unicode property, or expands past `RegexCompiler.maximumInstructions`, throws
    /// with a message that says why.
    public init(_ pattern: String) throws(ECMARegexError) {
        let node = try RegexParser.parse(pattern)
        if node.containsBackreference {
            throw ECMARegexError(message: "backreferences (\\1, \\k<name>) cannot be matched in linear time, so patterns here may not use them")
        }
        let compiled = try RegexCompiler.compile(node)
        self.pattern = pattern
        programs = compiled.programs
        sets = compiled.sets
    }

    /// Whether `pattern` is valid ECMA-262 syntax (what `format: regex` asks), including
    /// backreferences, which `init` refuses to run.
    public static func isValidSyntax(_ pattern: String) -> Bool {
        do {
            _ = try RegexParser.parse(pattern)
            return true
        } catch {
            return false
        }
    }

    /// How many instructions the compiled pattern holds: one search over `n` scalars costs
    /// at most 2 × this × (n + 1) steps when the pattern has no lookaround.
    public var instructionCount: Int { programs.reduce(0) { $0 + $1.instructions.count } }

    /// Whether the pattern matches somewhere in `text`. Each step of the engine takes one unit
    /// of `budget`; nil when the budget ran out before an answer.
    public func search(_ text: String, budget: inout Int) -> Bool? {
        var matcher = RegexMatcher(programs: programs, sets: sets, text: text.unicodeScalars.map(\.value), budget: budget)
        let answer = matcher.search()
        budget = max(matcher.budget, 0)
        return answer
    }
}

/// Why a pattern was refused.
public struct ECMARegexError: Error, Sendable, Equatable {
    public let message: String
    public init(message: String) { self.message = message }
}
