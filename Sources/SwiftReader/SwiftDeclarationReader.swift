/// A recursive-descent reader for the declarations of one Swift file. It understands type
/// declarations, extensions, stored and computed properties, enum cases and type aliases, and
/// steps over everything else (functions, initializers, macros, the inactive branches of
/// `#if`) by balanced brackets, so a body may contain any Swift at all.
struct SwiftDeclarationReader {
    var tokens: [SwiftToken]
    var index = 0
    let scalars: [Unicode.Scalar]
    /// Where the last consumed token (or split-off operator character) ended, for source text.
    var previousEnd = 0

    /// The declarations of a file, extensions not yet merged: an extension may extend a type
    /// declared in another file of the same target.
    static func read(_ source: String, file: String? = nil) throws(SwiftSchemaError) -> SwiftMembers {
        var reader = SwiftDeclarationReader(
            tokens: try SwiftTokenizer.tokenize(source, file: file), scalars: Array(source.unicodeScalars))
        return try reader.readMembers(of: .file, openBrace: nil)
    }

    private init(tokens: [SwiftToken], scalars: [Unicode.Scalar]) {
        self.tokens = tokens
        self.scalars = scalars
    }

    /// Where members are read; it decides which declarations may appear (`case` only in an
    /// enum, `extension` only at file level).
    enum Container: Equatable {
        case file
        case type(SwiftTypeDeclaration.Kind)
        case `extension`
    }

    /// Words that may precede a declaration keyword; none changes how a stored property is coded
    /// except `static`, `class` and `lazy`, which the reader records.
    static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "package", "open", "static", "class", "final",
        "mutating", "nonmutating", "nonisolated", "lazy", "weak", "unowned", "override", "indirect",
        "dynamic", "optional", "required", "convenience", "prefix", "postfix", "infix", "distributed",
        "consuming", "borrowing",
    ]

    /// Words that start a declaration; on a new line they end a body-less declaration before them.
    static let declarationKeywords: Set<String> = [
        "var", "let", "func", "init", "deinit", "subscript", "struct", "enum", "class", "actor", "protocol",
        "extension", "typealias", "case", "import", "operator", "precedencegroup",
    ]

    /// Attributes that do not change how a property is coded; any other attribute on a stored
    /// property may be a property wrapper.
    static let declarationAttributes: Set<String> = [
        "available", "objc", "nonobjc", "usableFromInline", "preconcurrency", "MainActor", "_spi",
    ]

    var current: SwiftToken { tokens[index] }

    func peek(_ offset: Int) -> SwiftToken { tokens[min(index + offset, tokens.count - 1)] }

    mutating func advance() {
        guard current.kind != .endOfFile else { return }
        previousEnd = current.end
        index += 1
    }

    /// The source text from `start` to the end of the last consumed token.
    func text(from start: SwiftToken) -> String {
        String(String.UnicodeScalarView(scalars[start.start..<max(start.start, previousEnd)]))
    }

    func error(_ message: String, at token: SwiftToken? = nil) -> SwiftSchemaError {
        SwiftSchemaError(message, at: (token ?? current).location)
    }

    func describe(_ token: SwiftToken) -> String {
        token.kind == .endOfFile ? "the end of the file" : "'\(token.text)'"
    }

    mutating func expectIdentifier(_ what: String) throws(SwiftSchemaError) -> SwiftToken {
        let token = current
        guard token.kind == .identifier else { throw error("expected \(what), found \(describe(token))") }
        advance()
        return token
    }

    mutating func expectPunctuation(_ mark: String) throws(SwiftSchemaError) {
        guard current.isPunctuation(mark) else { throw error("expected '\(mark)', found \(describe(current))") }
        advance()
    }

    /// Reads members up to the `}` matching `openBrace`, or to the end of the file.
    mutating func readMembers(of container: Container, openBrace: SwiftToken?) throws(SwiftSchemaError) -> SwiftMembers {
        var members = SwiftMembers()
        while true {
            let token = current
            if token.kind == .endOfFile {
                guard let openBrace else { return members }
                throw error("this '{' is never closed", at: openBrace)
            }
            if token.isPunctuation("}") {
                guard openBrace != nil else { throw error("unexpected '}'") }
                advance()
                return members
            }
            if token.isPunctuation(";") {
                advance()
                continue
            }
            try readMember(into: &members, of: container)
        }
    }

    private mutating func readMember(into members: inout SwiftMembers, of container: Container) throws(SwiftSchemaError) {
        let doc = current.doc
        var attributes: [String] = []
        var modifiers: Set<String> = []
        while true {
            if current.isPunctuation("@") {
                attributes.append(try readAttribute())
            } else if current.kind == .identifier, !current.isBackticked, Self.modifiers.contains(current.text),
                current.text != "class" || isDeclarationKeyword(peek(1))
            {
                modifiers.insert(current.text)
                advance()
                if current.isPunctuation("("), !current.spaceBefore { try skipBalanced() }
            } else {
                break
            }
        }
        let keyword = current
        if keyword.isPunctuation("#") {
            try readDirective()
            return
        }
        guard keyword.kind == .identifier, !keyword.isBackticked else {
            throw error("expected a declaration, found \(describe(keyword))")
        }
        switch keyword.text {
        case "var", "let":
            let wrapper = attributes.first { !Self.declarationAttributes.contains($0) }
            members.properties += try readProperties(
                isStatic: modifiers.contains("static") || modifiers.contains("class"),
                isLazy: modifiers.contains("lazy"), wrapperAttribute: wrapper, doc: doc)
        case "struct", "enum", "class", "actor", "protocol":
            members.types.append(try readTypeDeclaration(doc: doc))
        case "extension" where container == .file:
            members.extensions.append(try readExtension())
        case "typealias":
            members.typeAliases.append(try readTypeAlias())
        case "func", "init", "deinit", "subscript":
            if let coding = try skipFunction() { members.customCoding.append(coding) }
        case "case" where container == .type(.enum):
            members.cases += try readEnumCases()
        case "import", "operator":
            advance()
            skipRestOfLine()
        case "precedencegroup":
            advance()
            _ = try expectIdentifier("a precedence group name")
            try skipBalanced()
        default:
            throw error("unexpected \(describe(keyword)) in a declaration list")
        }
    }

    /// Whether `token` is a modifier or a declaration keyword (not backticked).
    func isDeclarationKeyword(_ token: SwiftToken) -> Bool {
        token.kind == .identifier && !token.isBackticked
            && (Self.modifiers.contains(token.text) || Self.declarationKeywords.contains(token.text))
    }

    /// Reads `@name`, `@Module.name` or `@name(arguments)` and returns the name.
    mutating func readAttribute() throws(SwiftSchemaError) -> String {
        advance()
        var name = try expectIdentifier("an attribute name").text
        while current.isPunctuation("."), !current.spaceBefore, peek(1).kind == .identifier {
            advance()
            name += "." + current.text
            advance()
        }
        if current.isPunctuation("("), !current.spaceBefore { try skipBalanced() }
        return name
    }

    /// `#if` keeps its first branch and skips `#elseif`/`#else` branches (for example
    /// `#if canImport(ActivityKit)` around the whole file); other `#name` are macros to skip.
    private mutating func readDirective() throws(SwiftSchemaError) {
        let hash = current
        advance()
        let name = try expectIdentifier("a directive or macro name after '#'")
        switch name.text {
        case "if":
            skipRestOfLine()
        case "endif":
            break
        case "elseif", "else":
            var depth = 1
            while depth > 0 {
                guard current.kind != .endOfFile else { throw error("missing '#endif' for the '#if' branch", at: hash) }
                if current.isPunctuation("#"), peek(1).isKeyword("if") { depth += 1 }
                if current.isPunctuation("#"), peek(1).isKeyword("endif") { depth -= 1 }
                advance()
            }
            advance()
        default:
            if current.isPunctuation("("), !current.spaceBefore { try skipBalanced() }
            while true {
                if current.isPunctuation("{") {
                    try skipBalanced()
                } else if current.kind == .identifier, peek(1).isPunctuation(":"), peek(2).isPunctuation("{") {
                    advance()
                    advance()
                    try skipBalanced()
                } else {
                    return
                }
            }
        }
    }

    /// Skips tokens up to the next line break.
    mutating func skipRestOfLine() {
        while current.kind != .endOfFile, !current.newlineBefore { advance() }
    }
}
