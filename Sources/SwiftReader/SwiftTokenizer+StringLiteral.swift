/// String literals: where they end (so braces and quotes inside never confuse the reader) and,
/// when they do not interpolate, their value (a `default` or an enum raw value).
extension SwiftTokenizer {
    /// Scans from the opening quote (after any `#`s) past the closing delimiter. Returns the
    /// value, or nil when the literal interpolates.
    mutating func scanStringLiteral(hashCount: Int) throws(SwiftSchemaError) -> String? {
        let startLocation = location
        let isMultiline = peek(1) == "\"" && peek(2) == "\""
        let quotes = isMultiline ? 3 : 1
        advance(quotes)
        var raw: [Unicode.Scalar] = []
        var interpolates = false
        while true {
            guard let c = peek(), isMultiline || c != "\n" else {
                throw SwiftSchemaError("unterminated string literal", at: startLocation)
            }
            if isDelimiter(quotes: quotes, hashCount: hashCount) {
                advance(quotes + hashCount)
                break
            }
            if c == "\\", (0..<hashCount).allSatisfy({ peek(1 + $0) == "#" }) {
                if peek(1 + hashCount) == "(" {
                    advance(2 + hashCount)
                    try skipInterpolation()
                    interpolates = true
                    continue
                }
                // Keep the escape verbatim, and step over the escaped character so that `\"`
                // does not end the literal.
                for _ in 0...(hashCount + 1) {
                    if let scalar = peek() { raw.append(scalar) }
                    advance()
                }
                continue
            }
            raw.append(c)
            advance()
        }
        if interpolates { return nil }
        let content = isMultiline ? try Self.removingIndentation(raw, at: startLocation) : raw
        return try Self.decodingEscapes(content, hashCount: hashCount, at: startLocation)
    }

    private func isDelimiter(quotes: Int, hashCount: Int) -> Bool {
        (0..<quotes).allSatisfy { peek($0) == "\"" } && (0..<hashCount).allSatisfy { peek(quotes + $0) == "#" }
    }

    /// Skips `\( … )` up to its closing parenthesis, stepping over nested strings and comments.
    private mutating func skipInterpolation() throws(SwiftSchemaError) {
        let startLocation = location
        var depth = 1
        while depth > 0 {
            guard let c = peek() else { throw SwiftSchemaError("unterminated string interpolation", at: startLocation) }
            var hashes = 0
            while c == "#", peek(hashes) == "#" { hashes += 1 }
            if c == "\"" || (hashes > 0 && peek(hashes) == "\"") {
                advance(hashes)
                _ = try scanStringLiteral(hashCount: hashes)
                continue
            }
            if c == "/", peek(1) == "*" {
                try skipBlockComment()
                continue
            }
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            advance()
        }
    }

    /// A multi-line literal drops the line after the opening `"""`, and every line loses the
    /// indentation of the closing `"""`.
    private static func removingIndentation(_ raw: [Unicode.Scalar], at location: SourceLocation) throws(SwiftSchemaError)
        -> [Unicode.Scalar]
    {
        var lines = raw.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
        guard lines.count >= 2, lines.first!.allSatisfy(\.properties.isWhitespace),
            lines.last!.allSatisfy(\.properties.isWhitespace)
        else {
            throw SwiftSchemaError(#"a multi-line string literal must start and end its content on lines of their own"#, at: location)
        }
        let indentation = Array(lines.removeLast())
        lines.removeFirst()
        var result: [Unicode.Scalar] = []
        for (i, line) in lines.enumerated() {
            if i > 0 { result.append("\n") }
            if line.starts(with: indentation) {
                result.append(contentsOf: line.dropFirst(indentation.count))
            } else if !line.allSatisfy(\.properties.isWhitespace) {
                throw SwiftSchemaError("a line of a multi-line string literal is indented less than its closing delimiter", at: location)
            }
        }
        return result
    }

    private static func decodingEscapes(_ content: [Unicode.Scalar], hashCount: Int, at location: SourceLocation)
        throws(SwiftSchemaError) -> String
    {
        var result = String.UnicodeScalarView()
        var i = 0
        while i < content.count {
            let c = content[i]
            let escaped = i + 1 + hashCount
            guard c == "\\", escaped < content.count, (i + 1..<escaped).allSatisfy({ content[$0] == "#" }) else {
                result.append(c)
                i += 1
                continue
            }
            i = escaped + 1
            switch content[escaped] {
            case "0": result.append("\0")
            case "\\": result.append("\\")
            case "t": result.append("\t")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "\"": result.append("\"")
            case "'": result.append("'")
            case "\n": break  // a backslash at the end of a line joins it to the next
            case "u":
                guard i < content.count, content[i] == "{",
                    let close = content[i...].firstIndex(of: "}"),
                    let value = UInt32(String(String.UnicodeScalarView(content[(i + 1)..<close])), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { throw SwiftSchemaError(#"invalid \u{…} escape in string literal"#, at: location) }
                result.append(scalar)
                i = close + 1
            default:
                throw SwiftSchemaError("invalid escape '\\\(content[escaped])' in string literal", at: location)
            }
        }
        return String(result)
    }
}
