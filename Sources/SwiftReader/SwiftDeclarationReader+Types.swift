/// Type syntax: names with generic arguments, `T?`, `[T]`, `[K: V]`, and the forms that have no
/// JSON counterpart (tuples, functions, `some`/`any`, compositions, metatypes), which are read
/// fully so that the declaration after them is found.
extension SwiftDeclarationReader {
    mutating func readType() throws(SwiftSchemaError) -> SwiftTypeSyntax {
        let start = current
        let type = try readTypeWithoutComposition()
        guard current.isOperator("&") else { return type }
        while current.isOperator("&") {
            advance()
            _ = try readTypeWithoutComposition()
        }
        return SwiftTypeSyntax(kind: .unsupported, text: text(from: start), location: start.location)
    }

    private static let typePrefixes: Set<String> = ["some", "any", "inout", "borrowing", "consuming", "sending", "each", "repeat"]

    private mutating func readTypeWithoutComposition() throws(SwiftSchemaError) -> SwiftTypeSyntax {
        let start = current
        if start.isPunctuation("@") {
            _ = try readAttribute()
            return try readTypeWithoutComposition()
        }
        var kind: SwiftTypeSyntax.Kind
        if start.kind == .identifier, !start.isBackticked, Self.typePrefixes.contains(start.text),
            !peek(1).newlineBefore, peek(1).kind == .identifier || peek(1).isPunctuation("(") || peek(1).isPunctuation("[")
        {
            advance()
            _ = try readTypeWithoutComposition()
            kind = .unsupported
        } else if start.isPunctuation("(") {
            kind = try readParenthesizedType()
        } else if start.isPunctuation("[") {
            advance()
            let element = try readType()
            if current.isPunctuation(":") {
                advance()
                let value = try readType()
                kind = .dictionary(key: element, value: value)
            } else {
                kind = .array(element)
            }
            try expectPunctuation("]")
        } else if start.kind == .identifier {
            kind = try readNamedType()
        } else {
            throw error("expected a type, found \(describe(start))")
        }
        while true {
            let wrappedText = text(from: start)
            if !current.spaceBefore, consumeOperatorPrefix("?") || consumeOperatorPrefix("!") {
                kind = .optional(SwiftTypeSyntax(kind: kind, text: wrappedText, location: start.location))
            } else if current.isPunctuation("."), peek(1).isKeyword("Type") || peek(1).isKeyword("Protocol") {
                advance()
                advance()
                kind = .unsupported
            } else {
                break
            }
        }
        return SwiftTypeSyntax(kind: kind, text: text(from: start), location: start.location)
    }

    /// `Outer.Inner<Arg>`, stopping before `.Type`.
    private mutating func readNamedType() throws(SwiftSchemaError) -> SwiftTypeSyntax.Kind {
        var components: [SwiftTypeSyntax.NameComponent] = []
        while true {
            let name = try expectIdentifier("a type name")
            var arguments: [SwiftTypeSyntax] = []
            if !current.spaceBefore, consumeOperatorPrefix("<") {
                repeat {
                    arguments.append(try readType())
                } while consumeComma()
                guard consumeOperatorPrefix(">") else {
                    throw error("expected '>' to close the generic arguments of '\(name.text)'")
                }
            }
            components.append(.init(name: name.text, arguments: arguments))
            guard current.isPunctuation("."), peek(1).kind == .identifier,
                !peek(1).isKeyword("Type"), !peek(1).isKeyword("Protocol")
            else { return .named(components) }
            advance()
        }
    }

    /// `(T)` is `T`; tuples and function types have no JSON form.
    private mutating func readParenthesizedType() throws(SwiftSchemaError) -> SwiftTypeSyntax.Kind {
        advance()
        var elements: [SwiftTypeSyntax] = []
        var hasLabels = false
        if !current.isPunctuation(")") {
            repeat {
                // `label: T` or `_ name: T` in tuples and function parameter lists.
                if current.kind == .identifier, peek(1).isPunctuation(":") || (peek(1).kind == .identifier && peek(2).isPunctuation(":")) {
                    hasLabels = true
                    while !current.isPunctuation(":") { advance() }
                    advance()
                }
                elements.append(try readType())
                if current.isOperator("...") { advance() }
            } while consumeComma()
        }
        try expectPunctuation(")")
        var isFunction = false
        while current.isKeyword("async") || current.isKeyword("throws") || current.isKeyword("rethrows") {
            advance()
            if current.isPunctuation("("), !current.spaceBefore { try skipBalanced() }
        }
        if current.isOperator("->") {
            advance()
            _ = try readType()
            isFunction = true
        }
        if !isFunction, !hasLabels, elements.count == 1 { return elements[0].kind }
        return .unsupported
    }

    /// Consumes `character` from the start of an operator token, splitting runs such as `>>`,
    /// `>?` or `?>` that Swift's lexer joins but that close generic arguments in a type.
    mutating func consumeOperatorPrefix(_ character: Character) -> Bool {
        let token = current
        guard token.kind == .operator, token.text.first == character else { return false }
        guard token.text.count > 1 else {
            advance()
            return true
        }
        var rest = token
        rest.text.removeFirst()
        rest.start += 1
        rest.location.column += 1
        rest.spaceBefore = false
        rest.newlineBefore = false
        rest.doc = nil
        tokens[index] = rest
        previousEnd = token.start + 1
        return true
    }
}
