/// Splits Swift source into tokens. Only as much of the lexical grammar as a declaration reader
/// needs, but all of it that could hide a brace or a quote: nested block comments, string
/// literals (multi-line, raw, with interpolations holding further strings) and backticked names.
struct SwiftTokenizer {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1
    /// Named in every location, so that errors from a directory of files say which one.
    let file: String?

    static func tokenize(_ source: String, file: String? = nil) throws(SwiftSchemaError) -> [SwiftToken] {
        var tokenizer = SwiftTokenizer(scalars: Array(source.unicodeScalars), file: file)
        return try tokenizer.tokens()
    }

    private init(scalars: [Unicode.Scalar], file: String?) {
        self.scalars = scalars
        self.file = file
    }

    var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
    }

    private mutating func tokens() throws(SwiftSchemaError) -> [SwiftToken] {
        var tokens: [SwiftToken] = []
        if peek() == "#", peek(1) == "!" { skipLine() }
        var spaceBefore = true
        var newlineBefore = true
        var docParts: [SwiftDocComment.Part] = []
        while true {
            let trivia = try skipTrivia(doc: &docParts)
            spaceBefore = spaceBefore || trivia.space
            newlineBefore = newlineBefore || trivia.newline
            let start = index
            let startLocation = location
            var token = SwiftToken(
                kind: .endOfFile, text: "", location: startLocation, start: start, end: start,
                spaceBefore: spaceBefore, newlineBefore: newlineBefore,
                doc: SwiftDocComment.text(of: docParts))
            guard let c = peek() else {
                tokens.append(token)
                return tokens
            }
            if c == "`" {
                token.text = try scanBacktickedName()
                token.kind = .identifier
                token.isBackticked = true
            } else {
                (token.kind, token.stringValue) = try scanToken(startingWith: c)
                token.text = String(String.UnicodeScalarView(scalars[start..<index]))
            }
            token.end = index
            tokens.append(token)
            docParts = []
            spaceBefore = false
            newlineBefore = false
        }
    }

    private mutating func scanToken(startingWith c: Unicode.Scalar) throws(SwiftSchemaError)
        -> (SwiftToken.Kind, String?)
    {
        if c == "_" || c == "$" || c.properties.isXIDStart {
            while let next = peek(), next == "$" || next.properties.isXIDContinue { advance() }
            return (.identifier, nil)
        }
        if ("0"..."9").contains(c) { return (scanNumber(), nil) }
        if c == "\"" { return (.stringLiteral, try scanStringLiteral(hashCount: 0)) }
        if c == "#" {
            var hashes = 0
            while peek(hashes) == "#" { hashes += 1 }
            if peek(hashes) == "\"" {
                advance(hashes)
                return (.stringLiteral, try scanStringLiteral(hashCount: hashes))
            }
        }
        if c == ".", peek(1) != "." {
            advance()
            return (.punctuation, nil)
        }
        if "{}()[],:;@#\\".unicodeScalars.contains(c) {
            advance()
            return (.punctuation, nil)
        }
        if c == "." || Self.isOperatorCharacter(c) {
            advance()
            while let next = peek(), Self.isOperatorCharacter(next) || (c == "." && next == "."),
                !(next == "/" && (peek(1) == "/" || peek(1) == "*"))
            {
                advance()
            }
            return (.operator, nil)
        }
        throw SwiftSchemaError("unexpected character '\(c)'", at: location)
    }

    static func isOperatorCharacter(_ c: Unicode.Scalar) -> Bool {
        "/=-+!*%<>&|^~?".unicodeScalars.contains(c)
    }

    /// Skips whitespace and comments, collecting doc comments; reports what was skipped.
    private mutating func skipTrivia(doc: inout [SwiftDocComment.Part]) throws(SwiftSchemaError) -> (space: Bool, newline: Bool) {
        var space = false
        var newline = false
        while let c = peek() {
            if c == "\n" {
                newline = true
            } else if c == "/", peek(1) == "/" {
                let isDoc = peek(2) == "/" && peek(3) != "/"
                let text = skipLine()
                if isDoc { doc.append(.line(String(text.dropFirst(3)))) }
                space = true
                continue
            } else if c == "/", peek(1) == "*" {
                let isDoc = peek(2) == "*" && peek(3) != "*" && peek(3) != "/"
                let text = try skipBlockComment()
                if isDoc { doc.append(.block(String(text.dropFirst(3).dropLast(2)))) }
                space = true
                continue
            } else if !c.properties.isWhitespace {
                break
            }
            space = true
            advance()
        }
        return (space, newline)
    }

    /// Skips to the end of the line (not past the line break) and returns what it skipped.
    @discardableResult
    private mutating func skipLine() -> String {
        let start = index
        while let c = peek(), c != "\n" { advance() }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    /// Skips a block comment, which may nest, and returns its text.
    @discardableResult
    mutating func skipBlockComment() throws(SwiftSchemaError) -> String {
        let start = index
        let startLocation = location
        advance(2)
        var depth = 1
        while depth > 0 {
            guard let c = peek() else { throw SwiftSchemaError("unterminated block comment", at: startLocation) }
            if c == "/", peek(1) == "*" {
                depth += 1
                advance(2)
            } else if c == "*", peek(1) == "/" {
                depth -= 1
                advance(2)
            } else {
                advance()
            }
        }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    private mutating func scanBacktickedName() throws(SwiftSchemaError) -> String {
        let startLocation = location
        advance()
        let start = index
        while let c = peek(), c != "`", c != "\n" { advance() }
        guard peek() == "`", index > start else { throw SwiftSchemaError("unterminated backticked name", at: startLocation) }
        let name = String(String.UnicodeScalarView(scalars[start..<index]))
        advance()
        return name
    }

    /// Integer and floating-point literals in every radix; a `.` counts only when a digit
    /// follows, so `1.description` stays three tokens.
    private mutating func scanNumber() -> SwiftToken.Kind {
        var isFloat = false
        if peek() == "0", let radix = peek(1), "xob".unicodeScalars.contains(radix) {
            advance(2)
            let isHex = radix == "x"
            func isDigit(_ c: Unicode.Scalar) -> Bool {
                switch radix {
                case "x": c.properties.isASCIIHexDigit
                case "o": ("0"..."7").contains(c)
                default: c == "0" || c == "1"
                }
            }
            while let c = peek(), isDigit(c) || c == "_" { advance() }
            if isHex, peek() == ".", let next = peek(1), next.properties.isASCIIHexDigit {
                isFloat = true
                advance()
                while let c = peek(), c.properties.isASCIIHexDigit || c == "_" { advance() }
            }
            if isHex, peek() == "p" || peek() == "P" {
                isFloat = true
                scanExponent()
            }
            return isFloat ? .floatLiteral : .integerLiteral
        }
        while let c = peek(), ("0"..."9").contains(c) || c == "_" { advance() }
        if peek() == ".", let next = peek(1), ("0"..."9").contains(next) {
            isFloat = true
            advance()
            while let c = peek(), ("0"..."9").contains(c) || c == "_" { advance() }
        }
        if peek() == "e" || peek() == "E" {
            isFloat = true
            scanExponent()
        }
        return isFloat ? .floatLiteral : .integerLiteral
    }

    private mutating func scanExponent() {
        advance()
        if peek() == "+" || peek() == "-" { advance() }
        while let c = peek(), ("0"..."9").contains(c) || c == "_" { advance() }
    }
}
