/// Parses ECMA-262 pattern syntax (with the `u` flag, which JSON Schema's Unicode semantics
/// imply) into a `RegexNode`. Lenient where Annex B is and real schemas rely on it: `]`, `}` and
/// a `{` that starts no quantifier are literals, and any non-alphanumeric character may be
/// escaped. Strict where the suite is: `\a`, `(?P<n>…)`, `(?#…)` and `(?i)` are refused.
struct RegexParser {
    /// Groups nest at most this deep, so parsing (recursive) and compiling stay bounded.
    static let maximumNesting = 100

    private let scalars: [UInt32]
    private var index = 0
    private var nesting = 0
    private let groupCount: Int
    private var groupNames: [[UInt32]] = []
    private var namedReferences: [[UInt32]] = []

    static func parse(_ pattern: String) throws(ECMARegexError) -> RegexNode {
        var parser = RegexParser(pattern)
        let node = try parser.disjunction()
        if parser.index < parser.scalars.count {
            throw parser.failure(parser.scalars[parser.index] == 0x29 ? "unmatched ')'" : "unexpected character")
        }
        for name in parser.namedReferences where !parser.groupNames.contains(name) {
            throw ECMARegexError(message: "\\k<\(Self.text(name))> names no group")
        }
        return node
    }

    private init(_ pattern: String) {
        scalars = pattern.unicodeScalars.map(\.value)
        groupCount = Self.countGroups(scalars)
    }

    // MARK: Structure

    private mutating func disjunction() throws(ECMARegexError) -> RegexNode {
        var alternatives = [try alternative()]
        while peek == 0x7C {
            index += 1
            alternatives.append(try alternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func alternative() throws(ECMARegexError) -> RegexNode {
        var terms: [RegexNode] = []
        while let scalar = peek, scalar != 0x7C, scalar != 0x29 {
            terms.append(try term())
        }
        return terms.isEmpty ? .empty : terms.count == 1 ? terms[0] : .sequence(terms)
    }

    private mutating func term() throws(ECMARegexError) -> RegexNode {
        let atom = try self.atom()
        if case .assertion = atom, isQuantifierAhead {
            throw failure("nothing to repeat")
        }
        guard let (minimum, maximum) = try quantifier() else { return atom }
        return .repetition(atom, min: minimum, max: maximum)
    }

    private var isQuantifierAhead: Bool {
        guard let scalar = peek else { return false }
        if scalar == 0x2A || scalar == 0x2B || scalar == 0x3F { return true }
        var probe = self
        return scalar == 0x7B && (try? probe.braces()) != nil
    }

    /// `* + ? {n} {n,} {n,m}`, each optionally followed by `?` (lazy, which a yes/no match ignores).
    private mutating func quantifier() throws(ECMARegexError) -> (Int, Int?)? {
        guard let scalar = peek else { return nil }
        var bounds: (Int, Int?)
        switch scalar {
        case 0x2A: index += 1; bounds = (0, nil)
        case 0x2B: index += 1; bounds = (1, nil)
        case 0x3F: index += 1; bounds = (0, 1)
        case 0x7B:
            var probe = self
            guard let braces = try probe.braces() else { return nil }
            self = probe
            bounds = braces
        default: return nil
        }
        if peek == 0x3F { index += 1 }
        return bounds
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor; nil (cursor unmoved) when the brace starts none.
    /// Counts saturate: the compiler refuses what they would expand to.
    private mutating func braces() throws(ECMARegexError) -> (Int, Int?)? {
        let start = index
        index += 1
        guard let minimum = decimal() else { index = start; return nil }
        var maximum: Int? = minimum
        if peek == 0x2C {
            index += 1
            maximum = decimal()
        }
        guard peek == 0x7D else { index = start; return nil }
        index += 1
        if let maximum, maximum < minimum { throw failure("numbers out of order in {} quantifier") }
        return (minimum, maximum)
    }

    private mutating func decimal() -> Int? {
        var value: Int?
        while let scalar = peek, (0x30...0x39).contains(scalar) {
            value = min((value ?? 0) * 10 + Int(scalar - 0x30), 1_000_000)
            index += 1
        }
        return value
    }

    private mutating func atom() throws(ECMARegexError) -> RegexNode {
        let scalar = scalars[index]
        switch scalar {
        case 0x5E: index += 1; return .assertion(.inputStart)
        case 0x24: index += 1; return .assertion(.inputEnd)
        case 0x2E: index += 1; return .anyButLineTerminator
        case 0x28: return try group()
        case 0x5B: return .set(try characterClass())
        case 0x5C: return try atomEscape()
        case 0x2A, 0x2B, 0x3F: throw failure("nothing to repeat")
        case 0x7B:
            if isQuantifierAhead { throw failure("nothing to repeat") }
            index += 1
            return .codePoint(scalar)
        default:
            index += 1
            return .codePoint(scalar)
        }
    }

    private mutating func group() throws(ECMARegexError) -> RegexNode {
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Self.maximumNesting { throw failure("groups nested more than \(Self.maximumNesting) deep") }
        index += 1
        var lookaround: (behind: Bool, negated: Bool)?
        if peek == 0x3F {
            index += 1
            switch (peek, lookup(1)) {
            case (0x3A, _): index += 1
            case (0x3D, _): index += 1; lookaround = (false, false)
            case (0x21, _): index += 1; lookaround = (false, true)
            case (0x3C, 0x3D): index += 2; lookaround = (true, false)
            case (0x3C, 0x21): index += 2; lookaround = (true, true)
            case (0x3C, _):
                index += 1
                let name = try groupName()
                if groupNames.contains(name) { throw failure("duplicate group name \(Self.text(name))") }
                groupNames.append(name)
            default:
                throw failure("(? must be followed by :, =, !, <= , <! or <name> (inline flags, comments and Python groups are not ECMA-262)")
            }
        }
        let body = try disjunction()
        guard peek == 0x29 else { throw failure("missing ')'") }
        index += 1
        if let lookaround { return .lookaround(body, behind: lookaround.behind, negated: lookaround.negated) }
        return body
    }

    /// A group name after `<`, through the closing `>`.
    private mutating func groupName() throws(ECMARegexError) -> [UInt32] {
        var name: [UInt32] = []
        while let scalar = peek, scalar != 0x3E {
            guard let character = Unicode.Scalar(scalar) else { throw failure("invalid group name") }
            let allowed = name.isEmpty
                ? character.properties.isIDStart || scalar == 0x24 || scalar == 0x5F
                : character.properties.isIDContinue || scalar == 0x24 || scalar == 0x200C || scalar == 0x200D
            guard allowed else { throw failure("invalid group name") }
            name.append(scalar)
            index += 1
        }
        guard peek == 0x3E, !name.isEmpty else { throw failure("invalid group name") }
        index += 1
        return name
    }

    // MARK: Escapes

    private mutating func atomEscape() throws(ECMARegexError) -> RegexNode {
        index += 1
        guard let scalar = peek else { throw failure("\\ at end of pattern") }
        switch scalar {
        case 0x62: index += 1; return .assertion(.wordBoundary)
        case 0x42: index += 1; return .assertion(.notWordBoundary)
        case 0x31...0x39:
            let number = decimal() ?? 0
            guard number <= groupCount else { throw failure("\\\(number) refers to a group that does not exist") }
            return .backreference(number)
        case 0x6B:
            index += 1
            guard peek == 0x3C else { throw failure("\\k must be followed by <name>") }
            index += 1
            let name = try groupName()
            namedReferences.append(name)
            return .backreference(0)
        default:
            if let set = try classEscape() { return .set(set) }
            return .codePoint(try characterEscape())
        }
    }

    /// `\d \D \w \W \s \S \p{…} \P{…}` at the cursor (after the backslash), or nil.
    private mutating func classEscape() throws(ECMARegexError) -> RegexScalarSet? {
        guard let scalar = peek else { return nil }
        var set: RegexScalarSet
        switch scalar {
        case 0x64, 0x44: set = .digits
        case 0x77, 0x57: set = .wordCharacters
        case 0x73, 0x53: set = .whiteSpace
        case 0x70, 0x50:
            index += 1
            guard peek == 0x7B else { throw failure("\\p must be followed by {property}") }
            index += 1
            var name: [UInt32] = []
            while let next = peek, next != 0x7D { name.append(next); index += 1 }
            guard peek == 0x7D else { throw failure("missing '}' after \\p{") }
            index += 1
            guard let property = RegexUnicodeProperty.named(Self.text(name), negated: scalar == 0x50) else {
                throw ECMARegexError(message: "\\p{\(Self.text(name))} is not a Unicode property this registry knows (General_Category values and binary properties are; scripts are not)")
            }
            var result = RegexScalarSet()
            result.insert(property)
            return result
        default: return nil
        }
        index += 1
        set.negated = scalar < 0x61
        return set
    }

    /// One code point escape at the cursor (after the backslash).
    private mutating func characterEscape() throws(ECMARegexError) -> UInt32 {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case 0x74: return 0x09
        case 0x6E: return 0x0A
        case 0x76: return 0x0B
        case 0x66: return 0x0C
        case 0x72: return 0x0D
        case 0x63:
            guard let letter = peek, (0x41...0x5A).contains(letter) || (0x61...0x7A).contains(letter) else {
                throw failure("\\c must be followed by a letter")
            }
            index += 1
            return letter % 32
        case 0x30:
            if let next = peek, (0x30...0x39).contains(next) { throw failure("octal escapes are not allowed") }
            return 0
        case 0x78:
            guard let value = hexDigits(2) else { throw failure("\\x must be followed by two hex digits") }
            return value
        case 0x75: return try unicodeEscape()
        default:
            let isAlphanumeric = (0x30...0x39).contains(scalar) || (0x41...0x5A).contains(scalar)
                || (0x61...0x7A).contains(scalar) || scalar == 0x5F
            if isAlphanumeric { throw failure("\\\(Self.text([scalar])) is not an escape ECMA-262 defines") }
            return scalar
        }
    }

    /// `\uHHHH` (joining a surrogate pair written as two escapes) or `\u{H…}`.
    private mutating func unicodeEscape() throws(ECMARegexError) -> UInt32 {
        if peek == 0x7B {
            index += 1
            var value: UInt32 = 0
            var digits = 0
            while let scalar = peek, let digit = Self.hexValue(scalar) {
                value = value * 16 + digit
                digits += 1
                index += 1
                if value > 0x10FFFF { throw failure("\\u{…} beyond U+10FFFF") }
            }
            guard digits > 0, peek == 0x7D else { throw failure("\\u{ must hold hex digits and a '}'") }
            index += 1
            return value
        }
        guard let high = hexDigits(4) else { throw failure("\\u must be followed by four hex digits") }
        if (0xD800...0xDBFF).contains(high), peek == 0x5C, lookup(1) == 0x75 {
            let saved = index
            index += 2
            if let low = hexDigits(4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            index = saved
        }
        return high
    }

    private mutating func hexDigits(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let scalar = lookup(offset), let digit = Self.hexValue(scalar) else { return nil }
            value = value * 16 + digit
        }
        index += count
        return value
    }

    private static func hexValue(_ scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x30...0x39: scalar - 0x30
        case 0x41...0x46: scalar - 0x41 + 10
        case 0x61...0x66: scalar - 0x61 + 10
        default: nil
        }
    }

    // MARK: Classes

    private mutating func characterClass() throws(ECMARegexError) -> RegexScalarSet {
        index += 1
        var set = RegexScalarSet()
        if peek == 0x5E {
            index += 1
            set.negated = true
        }
        while peek != nil, peek != 0x5D {
            let low = try classAtom()
            if peek == 0x2D, let after = lookup(1), after != 0x5D {
                index += 1
                let high = try classAtom()
                guard case .single(let from) = low, case .single(let to) = high else {
                    // Annex B: `[\w-.]` is \w, '-' and '.', as browsers read it.
                    for atom in [low, .single(0x2D), high] { set.add(atom) }
                    continue
                }
                guard from <= to else { throw failure("range out of order in character class") }
                set.insert(from...to)
            } else {
                set.add(low)
            }
        }
        guard peek == 0x5D else { throw failure("missing ']'") }
        index += 1
        return set
    }

    fileprivate enum ClassAtom {
        case single(UInt32)
        case escape(RegexScalarSet)
    }

    private mutating func classAtom() throws(ECMARegexError) -> ClassAtom {
        let scalar = scalars[index]
        guard scalar == 0x5C else {
            index += 1
            return .single(scalar)
        }
        index += 1
        guard let next = peek else { throw failure("\\ at end of pattern") }
        if next == 0x62 { index += 1; return .single(0x08) }
        if next == 0x2D { index += 1; return .single(0x2D) }
        if let escape = try classEscape() { return .escape(escape) }
        if (0x31...0x39).contains(next) { throw failure("a backreference cannot appear in a class") }
        return .single(try characterEscape())
    }

    // MARK: Cursor

    private var peek: UInt32? { index < scalars.count ? scalars[index] : nil }

    private func lookup(_ offset: Int) -> UInt32? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func failure(_ reason: String) -> ECMARegexError {
        ECMARegexError(message: "\(reason) at character \(index + 1) of the pattern")
    }

    private static func text(_ scalars: [UInt32]) -> String {
        String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
    }

    /// Capturing groups in the pattern, so `\N` can be told apart from a group that does not
    /// exist before the group itself is parsed (`\1(a)` is valid).
    private static func countGroups(_ scalars: [UInt32]) -> Int {
        var count = 0, index = 0, inClass = false
        while index < scalars.count {
            switch scalars[index] {
            case 0x5C: index += 1
            case 0x5B: inClass = true
            case 0x5D: inClass = false
            case 0x28 where !inClass:
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                let afterNext = index + 2 < scalars.count ? scalars[index + 2] : nil
                if next != 0x3F || (afterNext == 0x3C && index + 3 < scalars.count
                    && scalars[index + 3] != 0x3D && scalars[index + 3] != 0x21) {
                    count += 1
                }
            default: break
            }
            index += 1
        }
        return count
    }
}

extension RegexScalarSet {
    fileprivate mutating func add(_ atom: RegexParser.ClassAtom) {
        switch atom {
        case .single(let value): insert(value...value)
        case .escape(let escape): formUnion(escape)
        }
    }
}
