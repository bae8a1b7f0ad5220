/// Stepping over code the schema does not need: bracketed groups, function-like declarations
/// (noting a hand-written `init(from:)` or `encode(to:)`), and initializer expressions, of which
/// only literals and enum cases are kept.
extension SwiftDeclarationReader {
    /// Skips from an opening `(`, `[` or `{` past its matching closing bracket.
    mutating func skipBalanced() throws(SwiftSchemaError) {
        let closers = ["(": ")", "[": "]", "{": "}"]
        guard current.kind == .punctuation, closers[current.text] != nil else {
            throw error("expected '{', found \(describe(current))")
        }
        var open: [SwiftToken] = []
        repeat {
            let token = current
            guard token.kind != .endOfFile else { throw error("this '\(open.last!.text)' is never closed", at: open.last!) }
            if token.kind == .punctuation {
                if closers[token.text] != nil {
                    open.append(token)
                } else if closers.values.contains(token.text) {
                    let innermost = open.removeLast()
                    guard closers[innermost.text] == token.text else {
                        throw error("unexpected '\(token.text)': the '\(innermost.text)' on line \(innermost.location.line) is not closed")
                    }
                }
            }
            advance()
        } while !open.isEmpty
    }

    /// Skips a `func`, `init`, `deinit` or `subscript` declaration with its body. Returns the
    /// declaration when it is a hand-written `init(from:)` or `encode(to:)`.
    mutating func skipFunction() throws(SwiftSchemaError) -> SwiftCustomCoding? {
        let keyword = current
        advance()
        var name = keyword.text
        if keyword.text == "func" {
            name = current.text
            advance()
        }
        var firstLabel: String?
        var mentionsCoder = false
        while current.kind != .endOfFile, !current.isPunctuation("}"), !current.isPunctuation(";"),
            !(current.newlineBefore && isDeclarationStart(current))
        {
            let token = current
            if token.isPunctuation("{") {
                try skipBalanced()
                break
            }
            if token.isPunctuation("(") || token.isPunctuation("[") {
                if token.isPunctuation("("), firstLabel == nil { firstLabel = peek(1).text }
                let groupStart = index
                try skipBalanced()
                mentionsCoder = mentionsCoder || tokens[groupStart..<index].contains { $0.isKeyword("Decoder") || $0.isKeyword("Encoder") }
            } else {
                mentionsCoder = mentionsCoder || token.isKeyword("Decoder") || token.isKeyword("Encoder")
                advance()
            }
        }
        guard mentionsCoder else { return nil }
        switch (name, firstLabel) {
        case ("init", "from"): return SwiftCustomCoding(signature: "init(from:)", location: keyword.location)
        case ("encode", "to"): return SwiftCustomCoding(signature: "encode(to:)", location: keyword.location)
        default: return nil
        }
    }

    /// Reads an initializer expression after `=` up to where Swift would end it: a `,` or `;`,
    /// the enclosing `}`, an observer block, or a line break not continued by an operator.
    mutating func readInitializer() throws(SwiftSchemaError) -> SwiftInitializer {
        let start = index
        while current.kind != .endOfFile {
            let token = current
            if token.isPunctuation(",") || token.isPunctuation(";") || token.isPunctuation("}")
                || token.isPunctuation(")") || token.isPunctuation("]")
            {
                break
            }
            if index > start, token.newlineBefore, !continuesExpression(after: tokens[index - 1], with: token) { break }
            if token.isPunctuation("{") {
                if peek(1).isKeyword("willSet") || peek(1).isKeyword("didSet") { break }
                try skipBalanced()
            } else if token.isPunctuation("(") || token.isPunctuation("[") {
                try skipBalanced()
            } else {
                advance()
            }
        }
        guard index > start else { throw error("expected an expression after '='") }
        return Self.initializer(from: tokens[start..<index])
    }

    /// Whether a line break between `previous` and `next` continues the expression: a binary
    /// operator (spaced on its left) on either side of the break, or a leading `.` member access.
    private func continuesExpression(after previous: SwiftToken, with next: SwiftToken) -> Bool {
        if next.isPunctuation(".") || next.kind == .operator { return true }
        if previous.kind == .operator { return previous.spaceBefore }
        return previous.isPunctuation(".") || previous.isPunctuation(":")
    }

    /// The value of an expression, when it is a literal or an enum case.
    private static func initializer(from tokens: ArraySlice<SwiftToken>) -> SwiftInitializer {
        let tokens = Array(tokens)
        if tokens.count == 2, tokens[0].isOperator("-"), !tokens[1].spaceBefore {
            switch tokens[1].kind {
            case .integerLiteral: return SwiftNumberLiteral.integer(tokens[1].text, negative: true).map { .integer($0) } ?? .expression
            case .floatLiteral: return SwiftNumberLiteral.float(tokens[1].text, negative: true).map { .float($0) } ?? .expression
            default: return .expression
            }
        }
        if tokens.count == 1 {
            let token = tokens[0]
            switch token.kind {
            case .integerLiteral: return SwiftNumberLiteral.integer(token.text, negative: false).map { .integer($0) } ?? .expression
            case .floatLiteral: return SwiftNumberLiteral.float(token.text, negative: false).map { .float($0) } ?? .expression
            case .stringLiteral: return token.stringValue.map { .string($0) } ?? .expression
            case .identifier where token.isKeyword("true"): return .boolean(true)
            case .identifier where token.isKeyword("false"): return .boolean(false)
            default: return .expression
            }
        }
        if let call = call(in: tokens) { return call }
        // `.name`, `Type.name`, `Outer.Type.name`: alternating names and dots.
        let startsWithDot = tokens.first?.isPunctuation(".") == true
        let path = startsWithDot ? tokens.dropFirst() : tokens[...]
        let names = path.enumerated().compactMap { offset, token -> String? in
            let isNamePosition = offset % 2 == 0
            if isNamePosition { return token.kind == .identifier ? token.text : nil }
            return token.isPunctuation(".") ? "" : nil
        }
        guard names.count == path.count, path.count % 2 == 1, startsWithDot || path.count >= 3 else { return .expression }
        let components = names.filter { !$0.isEmpty }
        return .member(qualifier: Array(components.dropLast()), name: components.last!)
    }

    /// The standard initializers that return an optional, by type and first argument label;
    /// `""` stands for an unlabeled string literal, as in `Int("42")`.
    private static let failableInitializers: Set<[String]> = [
        ["URL", "string"], ["UUID", "uuidString"], ["Decimal", "string"], ["Int", ""], ["Double", ""], ["Float", ""],
    ]

    /// `Type(…)`, `Outer.Type(…)` or either force-unwrapped with `!`: the type's name path.
    /// A type name starts with an upper-case letter by convention, which tells `Leg(…)` from
    /// a function call such as `makeLeg(…)`.
    private static func call(in tokens: [SwiftToken]) -> SwiftInitializer? {
        var end = tokens.count
        let isForced = tokens.last?.isOperator("!") == true
        if isForced { end -= 1 }
        var names: [String] = []
        var i = 0
        while i < end, tokens[i].kind == .identifier {
            names.append(tokens[i].text)
            i += 1
            guard i < end, tokens[i].isPunctuation("."), !tokens[i].spaceBefore else { break }
            i += 1
        }
        guard let typeName = names.last, typeName.first?.isUppercase == true, names.last != "init",
            i < end, tokens[i].isPunctuation("("), !tokens[i].spaceBefore, closesAtEnd(tokens[i..<end])
        else { return nil }
        let firstLabel: String? =
            if i + 2 < end, tokens[i + 2].isPunctuation(":") { tokens[i + 1].text }
            else if i + 1 < end, tokens[i + 1].kind == .stringLiteral { "" }
            else { nil }
        let isFailable = names.count == 1 && firstLabel.map { failableInitializers.contains([typeName, $0]) } == true
        return .call(type: names, isOptional: isFailable && !isForced)
    }

    /// Whether the bracket opening `group` closes at its last token.
    private static func closesAtEnd(_ group: ArraySlice<SwiftToken>) -> Bool {
        var depth = 0
        for (offset, token) in zip(group.indices, group) {
            if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{") { depth += 1 }
            if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation("}") {
                depth -= 1
                if depth == 0 { return offset == group.indices.last }
            }
        }
        return false
    }
}
