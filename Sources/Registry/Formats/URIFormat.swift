/// RFC 3986 URIs and URI references, and RFC 3987 IRIs (which also allow non-ASCII `ucschar`s,
/// and private-use scalars in the query), checked against the grammar's character classes.
enum URIFormat {
    static func isURI(_ scalars: [Unicode.Scalar], international: Bool, reference: Bool) -> Bool {
        let grammar = Grammar(international: international)
        var rest = scalars[...]
        if let hash = rest.firstIndex(of: "#") {
            guard grammar.isQueryOrFragment(rest[(hash + 1)...], query: false) else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            guard grammar.isQueryOrFragment(rest[(question + 1)...], query: true) else { return false }
            rest = rest[..<question]
        }
        let firstDelimiter = rest.firstIndex { $0 == ":" || $0 == "/" }
        if let colon = firstDelimiter, rest[colon] == ":", isScheme(rest[..<colon]) {
            return grammar.isHierarchicalPart(rest[(colon + 1)...], relative: false)
        }
        guard reference else { return false }
        return grammar.isHierarchicalPart(rest, relative: true)
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
    private static func isScheme(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first, first.isASCIILetter else { return false }
        return scalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "+" || $0 == "-" || $0 == "." }
    }

    private struct Grammar {
        let international: Bool

        /// `"//" authority path-abempty / path-absolute / path-rootless / path-empty`; a
        /// relative part's first segment may not hold `:` (path-noscheme).
        func isHierarchicalPart(_ part: ArraySlice<Unicode.Scalar>, relative: Bool) -> Bool {
            if part.starts(with: ["/", "/"]) {
                let afterSlashes = part.dropFirst(2)
                let pathStart = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
                return isAuthority(afterSlashes[..<pathStart]) && isPath(afterSlashes[pathStart...])
            }
            if relative, part.first != "/" {
                let firstSegmentEnd = part.firstIndex(of: "/") ?? part.endIndex
                if part[..<firstSegmentEnd].contains(":") { return false }
            }
            return isPath(part)
        }

        private func isPath(_ path: ArraySlice<Unicode.Scalar>) -> Bool {
            isEncoded(path) { $0 == "/" || isPathCharacter($0) }
        }

        func isQueryOrFragment(_ text: ArraySlice<Unicode.Scalar>, query: Bool) -> Bool {
            isEncoded(text) { scalar in
                scalar == "/" || scalar == "?" || isPathCharacter(scalar) || (international && query && isPrivateUse(scalar))
            }
        }

        /// `[ userinfo "@" ] host [ ":" port ]`
        private func isAuthority(_ authority: ArraySlice<Unicode.Scalar>) -> Bool {
            var rest = authority
            if let at = rest.firstIndex(of: "@") {
                guard isEncoded(rest[..<at], where: { isUnreserved($0) || isSubDelimiter($0) || $0 == ":" }) else { return false }
                rest = rest[(at + 1)...]
            }
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { return false }
                guard isIPLiteral(rest[(rest.startIndex + 1)..<close]) else { return false }
                rest = rest[(close + 1)...]
                if rest.isEmpty { return true }
                guard rest.first == ":" else { return false }
                return rest.dropFirst().allSatisfy(\.isASCIIDigit)
            }
            if let colon = rest.lastIndex(of: ":") {
                guard rest[(colon + 1)...].allSatisfy(\.isASCIIDigit) else { return false }
                rest = rest[..<colon]
            }
            return isEncoded(rest) { isUnreserved($0) || isSubDelimiter($0) }
        }

        /// `IPv6address / IPvFuture` (`v` 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )).
        private func isIPLiteral(_ literal: ArraySlice<Unicode.Scalar>) -> Bool {
            if literal.first == "v" || literal.first == "V" {
                guard let dot = literal.firstIndex(of: "."), dot > literal.startIndex + 1 else { return false }
                let version = literal[(literal.startIndex + 1)..<dot], rest = literal[(dot + 1)...]
                return version.allSatisfy(\.isASCIIHexDigit) && !rest.isEmpty
                    && rest.allSatisfy { $0.isASCII && (isUnreserved($0) || isSubDelimiter($0) || $0 == ":") }
            }
            return IPAddressFormat.isIPv6(literal)
        }

        private func isPathCharacter(_ scalar: Unicode.Scalar) -> Bool {
            isUnreserved(scalar) || isSubDelimiter(scalar) || scalar == ":" || scalar == "@"
        }

        private func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "-" || scalar == "." || scalar == "_" || scalar == "~"
                || (international && isUCSCharacter(scalar))
        }

        private func isSubDelimiter(_ scalar: Unicode.Scalar) -> Bool { "!$&'()*+,;=".unicodeScalars.contains(scalar) }

        /// RFC 3987 `ucschar`.
        private func isUCSCharacter(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if (0xA0...0xD7FF).contains(value) || (0xF900...0xFDCF).contains(value) || (0xFDF0...0xFFEF).contains(value) { return true }
            guard value >= 0x10000, value <= 0xEFFFD else { return false }
            return value & 0xFFFF <= 0xFFFD && (value < 0xE0000 || value >= 0xE1000)
        }

        private func isPrivateUse(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            return (0xE000...0xF8FF).contains(value) || (0xF0000...0xFFFFD).contains(value) || (0x100000...0x10FFFD).contains(value)
        }

        /// Every scalar is allowed by `allowed` or starts a `%HH` escape.
        private func isEncoded(_ text: ArraySlice<Unicode.Scalar>, where allowed: (Unicode.Scalar) -> Bool) -> Bool {
            var index = text.startIndex
            while index < text.endIndex {
                if text[index] == "%" {
                    guard index + 2 < text.endIndex,
                          text[index + 1].isASCIIHexDigit, text[index + 2].isASCIIHexDigit else { return false }
                    index += 3
                } else {
                    guard allowed(text[index]) else { return false }
                    index += 1
                }
            }
            return true
        }
    }
}
