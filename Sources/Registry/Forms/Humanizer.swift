/// Turns JSON keys and enum values into labels a person reads in a form, because most schemas
/// give no `title` and the key is all the builder has.
///
/// A name splits into words at `_`, `-`, `.` and whitespace (which are dropped), where a
/// lowercase letter meets an uppercase one, before the last capital of an acronym that starts a
/// new word, and where a letter meets a digit or a digit meets a capital. The first word is
/// capitalised and the others lowercased, except words in capitals (`ETA`, the `A` of
/// `seat12A`, and `IDs` with a plural `s`), which stay as written:
///
/// | name | label |
/// |---|---|
/// | `estimatedTime` | `Estimated time` |
/// | `flight_number` | `Flight number` |
/// | `ETA` | `ETA` |
/// | `gateID`, `gateIDs` | `Gate ID`, `Gate IDs` |
/// | `homeTeamScore` | `Home team score` |
/// | `URLString` | `URL string` |
/// | `etaMinutes`, `trackingUrl`, `driverIds` | `ETA minutes`, `Tracking URL`, `Driver IDs` (known acronyms) |
/// | `line2`, `leg2Gate`, `2ndLeg`, `seat12A` | `Line 2`, `Leg 2 gate`, `2nd leg`, `Seat 12 A` |
/// | `departure-gate` | `Departure gate` |
/// | `FLIGHT_NUMBER` | `FLIGHT NUMBER` (capitals are kept, as with `ETA`) |
///
/// A name with no words left (`__`) is its own label.
enum Humanizer {
    static func label(for name: String) -> String {
        let size = name.utf8.count
        return withUnsafeTemporaryAllocation(of: Letter.self, capacity: size) { letters in
            var count = 0
            for scalar in name.unicodeScalars {
                letters.initializeElement(at: count, to: Letter(scalar))
                count += 1
            }
            // Each letter writes itself and at most one space before it. ASCII letters stay one
            // byte; any other case mapping yields at most three scalars of four bytes.
            let capacity = count == size ? 2 * size : 13 * count
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { output in
                var builder = LabelBuilder(letters: UnsafeBufferPointer(rebasing: letters[..<count]), output: output)
                return builder.label() ?? name
            }
        }
    }

    /// The label of a `select` choice: a string is humanised like a name, anything else is
    /// shown as its JSON text.
    static func label(for value: JSONValue) -> String {
        if case .string(let text) = value { label(for: text) } else { JSONWriter.string(value) }
    }
}

/// A scalar of a name and the part it plays in splitting words.
private struct Letter {
    enum Kind {
        case upper, lower, digit, separator, other
    }

    let scalar: Unicode.Scalar
    let kind: Kind

    /// ASCII, nearly every name, skips the Unicode property tables.
    init(_ scalar: Unicode.Scalar) {
        self.scalar = scalar
        switch scalar.value {
        case 0x41...0x5A: kind = .upper
        case 0x61...0x7A: kind = .lower
        case 0x30...0x39: kind = .digit
        case 0x5F, 0x2D, 0x2E, 0x20, 0x09...0x0D: kind = .separator
        case 0..<0x80: kind = .other
        default: kind = Self.kind(ofNonASCII: scalar)
        }
    }

    private static func kind(ofNonASCII scalar: Unicode.Scalar) -> Kind {
        let properties = scalar.properties
        if properties.isUppercase { return .upper }
        if properties.isLowercase { return .lower }
        if properties.numericType != nil { return .digit }
        return properties.isWhitespace ? .separator : .other
    }
}

/// Splits one name into words and writes the label as UTF-8. Every field without a title
/// passes through here, so it works on integer positions in two temporary buffers, which stay
/// on the stack for names of ordinary length.
private struct LabelBuilder {
    private let letters: UnsafeBufferPointer<Letter>
    /// Large enough for any label of the letters.
    private let output: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    init(letters: UnsafeBufferPointer<Letter>, output: UnsafeMutableBufferPointer<UInt8>) {
        self.letters = letters
        self.output = output
    }

    /// The label, or nil when the name holds no word.
    mutating func label() -> String? {
        var wordStart: Int?
        for i in letters.indices {
            let isSeparator = letters[i].kind == .separator
            if isSeparator || startsWord(at: i), let start = wordStart {
                appendWord(start..<i)
                wordStart = nil
            }
            if !isSeparator && wordStart == nil { wordStart = i }
        }
        if let start = wordStart { appendWord(start..<letters.count) }
        return count == 0 ? nil : String(decoding: UnsafeBufferPointer(rebasing: output[..<count]), as: UTF8.self)
    }

    /// Whether a word boundary falls between the letters at `i - 1` and `i`.
    private func startsWord(at i: Int) -> Bool {
        guard i > 0 else { return false }
        let previous = letters[i - 1].kind
        let current = letters[i].kind
        if previous == .lower && current == .upper { return true }
        if (previous == .upper || previous == .lower) && current == .digit { return true }
        if previous == .digit && current == .upper { return true }
        // `URLString`: the `S` begins `String`, unless the lowercase part is a plural `s` (`IDs`).
        guard previous == .upper, current == .upper, i + 1 < letters.count, letters[i + 1].kind == .lower else {
            return false
        }
        let isPluralS = letters[i + 1].scalar == "s" && (i + 2 == letters.count || letters[i + 2].kind != .lower)
        return !isPluralS
    }

    /// Appends one word: capitalised when it is the first, lowercased unless it is in capitals.
    private mutating func appendWord(_ word: Range<Int>) {
        let isFirstWord = count == 0
        if !isFirstWord { append(UInt8(ascii: " ")) }
        let keepsCapitals = keepsCapitals(word)
        if let acronym = Self.knownAcronym(letters[word]) {
            for byte in acronym.utf8 { append(byte) }
            return
        }
        for i in word {
            let scalar = letters[i].scalar
            let isInitial = isFirstWord && i == word.lowerBound
            switch letters[i].kind {
            case .lower where isInitial:
                if scalar.isASCII {
                    append(UInt8(scalar.value) - 0x20)
                } else {
                    for byte in scalar.properties.titlecaseMapping.utf8 { append(byte) }
                }
            case .upper where !isInitial && !keepsCapitals:
                if scalar.isASCII {
                    append(UInt8(scalar.value) + 0x20)
                } else {
                    for byte in scalar.properties.lowercaseMapping.utf8 { append(byte) }
                }
            default:
                if scalar.isASCII {
                    append(UInt8(scalar.value))
                } else {
                    UTF8.encode(scalar) { append($0) }
                }
            }
        }
    }

    private mutating func append(_ byte: UInt8) {
        output[count] = byte
        count += 1
    }

    /// Words people write in capitals whatever the key's case (`etaMinutes` → `ETA minutes`,
    /// `trackingUrl` → `Tracking URL`, `gateIds` → `Gate IDs`).
    private static let acronyms = ["eta", "url", "uri", "id", "uuid", "api", "gps", "utc", "sku", "pdf", "sms", "vip", "qr"]

    /// The word in capitals when it is a known acronym, or one with a plural `s`.
    private static func knownAcronym(_ word: UnsafeBufferPointer<Letter>.SubSequence) -> String? {
        guard word.count >= 2, word.count <= 5, word.allSatisfy({ $0.kind == .upper || $0.kind == .lower }) else { return nil }
        let lowered = String(String.UnicodeScalarView(word.map(\.scalar))).lowercased()
        if acronyms.containsExactly(lowered) { return lowered.uppercased() }
        guard lowered.utf8.last == UInt8(ascii: "s"), acronyms.containsExactly(String(lowered.dropLast())) else { return nil }
        return lowered.dropLast().uppercased() + "s"
    }

    /// In capitals (`ETA`, the `A` of `seat12A`), or two or more capitals with a plural `s` (`IDs`).
    private func keepsCapitals(_ word: Range<Int>) -> Bool {
        let hasPluralS = word.count > 2 && letters[word.upperBound - 1].scalar == "s"
        return (word.lowerBound..<(hasPluralS ? word.upperBound - 1 : word.upperBound)).allSatisfy {
            letters[$0].kind == .upper
        }
    }
}
