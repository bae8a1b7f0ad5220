/// Turns `///` lines and `/** */` blocks into the plain text a schema `description` carries:
/// comment markers and the decorative leading `*` go, line breaks stay (they may be Markdown).
enum SwiftDocComment {
    enum Part: Sendable {
        /// The text after `///`.
        case line(String)
        /// The text between `/**` and `*/`.
        case block(String)
    }

    /// The comment's text, or nil when there is none or it is blank.
    static func text(of parts: [Part]) -> String? {
        var lines: [Substring] = []
        for part in parts {
            switch part {
            case .line(let text):
                lines.append(text.first == " " ? text.dropFirst() : Substring(text))
            case .block(let text):
                for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    var line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
                    if line.first == "*" {
                        line = line.dropFirst()
                        if line.first == " " { line = line.dropFirst() }
                    }
                    lines.append(line)
                }
            }
        }
        let trimmed = lines.map { $0.trimmingTrailingWhitespace }
        guard let first = trimmed.firstIndex(where: { !$0.isEmpty }),
            let last = trimmed.lastIndex(where: { !$0.isEmpty })
        else { return nil }
        return trimmed[first...last].joined(separator: "\n")
    }
}

extension Substring {
    fileprivate var trimmingTrailingWhitespace: Substring {
        var end = endIndex
        while end > startIndex, let c = self[index(before: end)].unicodeScalars.first, c.properties.isWhitespace {
            end = index(before: end)
        }
        return self[startIndex..<end]
    }
}
