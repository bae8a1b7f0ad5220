/// One lexical token of Swift source. Comments and whitespace are not tokens; what the reader
/// still needs from them survives as `spaceBefore`, `newlineBefore` (Swift ends a declaration
/// at a line break and tells prefix, postfix and binary operators apart by spacing) and `doc`.
struct SwiftToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// Names and keywords alike: Swift's keywords are contextual enough that the reader
        /// decides by position, and a backticked name is never a keyword.
        case identifier
        case integerLiteral
        case floatLiteral
        case stringLiteral
        /// One of `{ } ( ) [ ] , : ; @ # . \`.
        case punctuation
        /// A run of operator characters (`=`, `->`, `?`, `>>`); the type reader splits runs
        /// such as `>>` or `>?` that close generic arguments.
        case `operator`
        case endOfFile
    }

    var kind: Kind
    /// The source text; for a backticked name, the name without backticks.
    var text: String
    /// A string literal's value, or nil when it interpolates (its value is only known at run time).
    var stringValue: String?
    var isBackticked = false
    var location: SourceLocation
    /// Offsets in Unicode scalars, so a type's exact source text can quote it in messages.
    var start: Int
    var end: Int
    var spaceBefore: Bool
    var newlineBefore: Bool
    /// The `///` or `/** */` comment written just before this token.
    var doc: String?

    func isKeyword(_ word: String) -> Bool { kind == .identifier && !isBackticked && text == word }
    func isPunctuation(_ mark: String) -> Bool { kind == .punctuation && text == mark }
    func isOperator(_ op: String) -> Bool { kind == .operator && text == op }
}
