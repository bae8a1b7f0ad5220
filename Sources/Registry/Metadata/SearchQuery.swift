/// One search across an application (`GET /api/search?q=`): terms separated by spaces, all of
/// which a type must match.
/// - a bare word: a substring of the type's name, description or owner;
/// - `owner:text`: a substring of its owner;
/// - `label:key=value`: a label of the type or of one of its live versions;
/// - `field:text`: a substring of a field's name or path in one of its live versions.
///
/// Substrings compare with ASCII letters folded (`Gate` finds `gate`); everything else byte for
/// byte, as names are compared.
public struct SearchQuery: Sendable, Equatable {
    public static let maxBytes = 512
    public static let maxTerms = 8
    /// Shorter substrings match nearly everything and cannot use the trigram index.
    public static let minSubstringScalars = 2
    public static let maxSubstringBytes = 256

    public enum Term: Sendable, Equatable {
        case word(String)
        case owner(String)
        case label(key: String, value: String)
        case field(String)
    }

    public let terms: [Term]

    public init(terms: [Term]) {
        self.terms = terms
    }

    /// Parses `q`; each rule broken is a 400 naming `q` and the term.
    public init(parsing text: String) throws(RegistryError) {
        guard text.utf8.count <= Self.maxBytes else { throw .invalidArgument("q: at most \(Self.maxBytes) bytes") }
        guard !MetadataText.hasControlCharacters(text, allowingLineBreaks: false) else {
            throw .invalidArgument("q: must not contain control characters")
        }
        let words = text.unicodeScalars.split(separator: " ").map { String(String.UnicodeScalarView($0)) }
        guard !words.isEmpty else { throw .invalidArgument("q: is required: one or more terms separated by spaces") }
        guard words.count <= Self.maxTerms else { throw .invalidArgument("q: at most \(Self.maxTerms) terms, got \(words.count)") }
        var terms: [Term] = []
        for word in words {
            if let key = Self.value(of: word, after: "label:") {
                let parts = key.unicodeScalars.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    .map { String(String.UnicodeScalarView($0)) }
                guard parts.count == 2 else { throw .invalidArgument("q: \(ClientText.quoted(word)) must be label:key=value") }
                try Labels.validate(key: parts[0], field: "q")
                try Labels.validate(value: parts[1], key: parts[0], field: "q")
                terms.append(.label(key: parts[0], value: parts[1]))
            } else if let owner = Self.value(of: word, after: "owner:") {
                terms.append(.owner(try Self.substring(owner, term: word)))
            } else if let field = Self.value(of: word, after: "field:") {
                terms.append(.field(try Self.substring(field, term: word)))
            } else {
                terms.append(.word(try Self.substring(word, term: word)))
            }
        }
        self.terms = terms
    }

    /// The rest of `word` after `prefix` (compared as bytes), or nil when it does not start so.
    private static func value(of word: String, after prefix: String) -> String? {
        guard word.hasBytePrefix(prefix) else { return nil }
        return String(Substring(word.utf8.dropFirst(prefix.utf8.count)))
    }

    private static func substring(_ text: String, term: String) throws(RegistryError) -> String {
        guard text.unicodeScalars.count >= minSubstringScalars else {
            throw .invalidArgument("q: \(ClientText.quoted(term)) is shorter than \(minSubstringScalars) characters")
        }
        guard text.utf8.count <= maxSubstringBytes else { throw .invalidArgument("q: a term is longer than \(maxSubstringBytes) bytes") }
        return text
    }
}

/// One type a search found, with what matched it and where.
public struct SearchResult: Sendable, Equatable {
    public struct Match: Sendable, Equatable {
        /// `name`, `description`, `owner`, `label` or `field`.
        public let foundIn: String
        /// The text that matched: the name, description or owner, `key=value`, or the path.
        public let text: String
        /// The newest live version with the label or field; nil for what belongs to the type.
        public let version: Int32?
        /// The field's path, for `field` matches.
        public let path: String?

        public init(foundIn: String, text: String, version: Int32?, path: String?) {
            self.foundIn = foundIn
            self.text = text
            self.version = version
            self.path = path
        }
    }

    public let attributesType: String
    public let matches: [Match]

    public init(attributesType: String, matches: [Match]) {
        self.attributesType = attributesType
        self.matches = matches
    }

    /// The most matches shown per type: enough to say why it was found.
    public static let maxMatches = 20
}
