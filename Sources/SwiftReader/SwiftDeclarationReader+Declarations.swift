/// Type declarations, extensions, type aliases, properties and enum cases.
extension SwiftDeclarationReader {
    mutating func readTypeDeclaration(doc: String?) throws(SwiftSchemaError) -> SwiftTypeDeclaration {
        let keyword = current
        let kind = SwiftTypeDeclaration.Kind(rawValue: keyword.text)!
        advance()
        let name = try expectIdentifier("a type name after '\(keyword.text)'")
        let genericParameters = try readGenericParameters()
        let inheritance = try readInheritance()
        try skipWhereClause()
        let openBrace = current
        let members: SwiftMembers
        if kind == .protocol {
            try skipBalanced()
            members = SwiftMembers()
        } else {
            try expectPunctuation("{")
            members = try readMembers(of: .type(kind), openBrace: openBrace)
        }
        return SwiftTypeDeclaration(
            kind: kind, name: name.text, location: name.location, genericParameters: genericParameters,
            inheritance: inheritance, members: members, doc: doc)
    }

    mutating func readExtension() throws(SwiftSchemaError) -> SwiftExtension {
        advance()
        let extended = try readType()
        guard case .named(let components) = extended.kind else {
            throw error("expected a type name after 'extension'", at: tokens[index - 1])
        }
        let inheritance = try readInheritance()
        try skipWhereClause()
        let openBrace = current
        try expectPunctuation("{")
        let members = try readMembers(of: .extension, openBrace: openBrace)
        return SwiftExtension(extendedPath: components.map(\.name), inheritance: inheritance, members: members)
    }

    mutating func readTypeAlias() throws(SwiftSchemaError) -> SwiftTypeAlias {
        advance()
        let name = try expectIdentifier("a type alias name")
        let genericParameters = try readGenericParameters()
        guard current.isOperator("=") else { throw error("expected '=' in typealias '\(name.text)'") }
        advance()
        let target = try readType()
        try skipWhereClause()
        return SwiftTypeAlias(
            name: name.text, location: name.location, genericParameters: genericParameters, target: target)
    }

    /// `<T, U: Codable>`: the parameter names; constraints are the compiler's business.
    private mutating func readGenericParameters() throws(SwiftSchemaError) -> [String] {
        guard consumeOperatorPrefix("<") else { return [] }
        var names: [String] = []
        repeat {
            if current.isKeyword("each") { advance() }
            names.append(try expectIdentifier("a generic parameter name").text)
            if current.isPunctuation(":") {
                advance()
                _ = try readType()
            }
        } while consumeComma()
        guard consumeOperatorPrefix(">") else { throw error("expected '>' to close the generic parameters") }
        return names
    }

    private mutating func readInheritance() throws(SwiftSchemaError) -> [SwiftTypeSyntax] {
        guard current.isPunctuation(":") else { return [] }
        advance()
        var types: [SwiftTypeSyntax] = []
        repeat {
            if current.isPunctuation("@") { _ = try readAttribute() }
            types.append(try readType())
        } while consumeComma()
        return types
    }

    private mutating func skipWhereClause() throws(SwiftSchemaError) {
        guard current.isKeyword("where") else { return }
        while !current.isPunctuation("{"), current.kind != .endOfFile, !(current.newlineBefore && isDeclarationStart(current)) {
            if current.isPunctuation("(") || current.isPunctuation("[") { try skipBalanced() } else { advance() }
        }
    }

    mutating func consumeComma() -> Bool {
        guard current.isPunctuation(",") else { return false }
        advance()
        return true
    }

    /// Reads `var a: Int = 0, b: String { … }` after its attributes and modifiers.
    mutating func readProperties(isStatic: Bool, isLazy: Bool, wrapperAttribute: String?, doc: String?)
        throws(SwiftSchemaError) -> [SwiftProperty]
    {
        let isLet = current.text == "let"
        advance()
        var bindings: [SwiftProperty] = []
        repeat {
            guard current.kind == .identifier else {
                throw error("expected a property name after '\(isLet ? "let" : "var")', found \(describe(current)); destructuring declarations are not supported")
            }
            let name = current
            advance()
            var type: SwiftTypeSyntax?
            if current.isPunctuation(":") {
                advance()
                type = try readType()
            }
            var initializer: SwiftInitializer?
            if current.isOperator("=") {
                advance()
                initializer = try readInitializer()
            }
            var isComputed = false
            if current.isPunctuation("{") {
                isComputed = !(peek(1).isKeyword("willSet") || peek(1).isKeyword("didSet"))
                try skipBalanced()
            }
            bindings.append(
                SwiftProperty(
                    name: name.text, location: name.location, isLet: isLet, isStatic: isStatic, isLazy: isLazy,
                    isComputed: isComputed, wrapperAttribute: wrapperAttribute, type: type,
                    initializer: initializer, doc: doc))
        } while consumeComma()
        // In `var a, b: Int` the annotation after `b` gives `a` its type too.
        for i in bindings.indices.reversed().dropFirst() where bindings[i].type == nil && bindings[i].initializer == nil {
            bindings[i].type = bindings[i + 1].type
        }
        return bindings
    }

    /// Reads `case a, b = "B", c(Int)` after its modifiers.
    mutating func readEnumCases() throws(SwiftSchemaError) -> [SwiftEnumCase] {
        advance()
        var cases: [SwiftEnumCase] = []
        repeat {
            let name = try expectIdentifier("a case name")
            let associatedValues = current.isPunctuation("(") ? try readAssociatedValues() : nil
            var rawValue: SwiftInitializer?
            if current.isOperator("=") {
                advance()
                rawValue = try readInitializer()
            }
            cases.append(
                SwiftEnumCase(
                    name: name.text, location: name.location, rawValue: rawValue, associatedValues: associatedValues))
        } while consumeComma()
        return cases
    }

    /// Reads `(Int, label: String, _ name: Date = .now)`; default values are skipped, because
    /// synthesized `Codable` decodes every associated value that is not optional.
    private mutating func readAssociatedValues() throws(SwiftSchemaError) -> [SwiftAssociatedValue] {
        advance()
        var values: [SwiftAssociatedValue] = []
        if current.isPunctuation(")") {
            advance()
            return values
        }
        repeat {
            var label: String?
            if current.kind == .identifier, peek(1).isPunctuation(":") {
                label = current.text
                advance()
                advance()
            } else if current.kind == .identifier, peek(1).kind == .identifier, peek(2).isPunctuation(":") {
                label = current.text
                advance()
                advance()
                advance()
            }
            let type = try readType()
            if current.isOperator("=") {
                advance()
                _ = try readInitializer()
            }
            let key = label.flatMap { $0 == "_" ? nil : $0 } ?? "_\(values.count)"
            values.append(SwiftAssociatedValue(key: key, type: type))
        } while consumeComma()
        try expectPunctuation(")")
        return values
    }

    /// Whether `token` can begin a member declaration, which ends a body-less declaration
    /// written on the line before it.
    func isDeclarationStart(_ token: SwiftToken) -> Bool {
        token.isPunctuation("@") || token.isPunctuation("#") || token.isPunctuation("}") || isDeclarationKeyword(token)
    }
}
