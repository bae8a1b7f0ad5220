/// Resolves type syntax to coded types the way the compiler looks names up: generic parameters
/// first, then the types and aliases nested in each enclosing declaration from the inside out,
/// then the top level of every file read, then the standard types.
struct SwiftTypeMapper {
    let file: SwiftMembers

    /// A type alias chain longer than this is taken for a cycle.
    private static let maxAliasDepth = 32

    private enum Declared {
        case type(path: [String], declaration: SwiftTypeDeclaration)
        case alias(SwiftTypeAlias, scope: [String])
    }

    /// Resolves `type`, written inside the declaration at `scope`, as the type of `property`
    /// (named in messages).
    func resolve(_ type: SwiftTypeSyntax, in scope: [String], generics: [String: SwiftCodedType], property: String)
        throws(SwiftSchemaError) -> SwiftCodedType
    {
        try resolve(type, in: scope, generics: generics, property: property, aliasDepth: 0)
    }

    private func resolve(
        _ type: SwiftTypeSyntax, in scope: [String], generics: [String: SwiftCodedType], property: String, aliasDepth: Int
    ) throws(SwiftSchemaError) -> SwiftCodedType {
        func resolveNested(_ nested: SwiftTypeSyntax) throws(SwiftSchemaError) -> SwiftCodedType {
            try resolve(nested, in: scope, generics: generics, property: property, aliasDepth: aliasDepth)
        }
        switch type.kind {
        case .optional(let wrapped):
            return Self.optional(try resolveNested(wrapped))
        case .array(let element):
            return .array(try resolveNested(element))
        case .dictionary(let key, let value):
            return try dictionary(key: resolveNested(key), value: resolveNested(value), type: type, property: property)
        case .unsupported:
            throw Self.unsupported(type, property: property)
        case .named(let written):
            var components = written[...]
            if components.count > 1, SwiftStandardTypes.modules.contains(components[0].name),
                lookup(components[0].name, from: scope) == nil
            {
                components = components.dropFirst()
            }
            let head = components.first!
            if components.count == 1, head.arguments.isEmpty, let bound = generics[head.name] { return bound }
            var arguments: [SwiftCodedType] = []
            for argument in components.last!.arguments { arguments.append(try resolveNested(argument)) }
            guard var declared = lookup(head.name, from: scope) else {
                guard components.count == 1 else { throw Self.unsupported(type, property: property) }
                return try standardType(head.name, arguments: arguments, type: type, property: property)
            }
            for component in components.dropFirst() {
                guard case .type(let path, let declaration) = declared,
                    let member = Self.member(component.name, in: declaration.members, at: path)
                else { throw Self.unsupported(type, property: property) }
                declared = member
            }
            switch declared {
            case .type(let path, let declaration):
                return try declaredType(declaration, at: path, arguments: arguments, type: type, property: property)
            case .alias(let alias, let aliasScope):
                guard aliasDepth < Self.maxAliasDepth else {
                    throw SwiftSchemaError("typealias '\(alias.name)' refers to itself", at: alias.location)
                }
                guard alias.genericParameters.count == arguments.count else {
                    throw Self.argumentCountMismatch(type, expected: alias.genericParameters.count, property: property)
                }
                let bound = generics.merging(zip(alias.genericParameters, arguments)) { $1 }
                return try resolve(alias.target, in: aliasScope, generics: bound, property: property, aliasDepth: aliasDepth + 1)
            }
        }
    }

    /// `T??` encodes like `T?`: nil is `null` either way.
    private static func optional(_ wrapped: SwiftCodedType) -> SwiftCodedType {
        wrapped.isOptional ? wrapped : .optional(wrapped)
    }

    private func dictionary(key: SwiftCodedType, value: SwiftCodedType, type: SwiftTypeSyntax, property: String)
        throws(SwiftSchemaError) -> SwiftCodedType
    {
        guard case .scalar("String", _) = key else {
            throw SwiftSchemaError(
                "unsupported type '\(type.text)' for property '\(property)': only dictionaries with String keys encode as a JSON object",
                at: type.location)
        }
        return .dictionary(value)
    }

    private func standardType(_ name: String, arguments: [SwiftCodedType], type: SwiftTypeSyntax, property: String)
        throws(SwiftSchemaError) -> SwiftCodedType
    {
        switch (name, arguments.count) {
        case ("Optional", 1): return Self.optional(arguments[0])
        case ("Array", 1): return .array(arguments[0])
        case ("Dictionary", 2): return try dictionary(key: arguments[0], value: arguments[1], type: type, property: property)
        case ("ClosedRange", 1): return .range(bound: arguments[0], closed: true)
        case ("Range", 1): return .range(bound: arguments[0], closed: false)
        default:
            guard arguments.isEmpty, let schema = SwiftStandardTypes.scalars[name] else {
                throw Self.unsupported(type, property: property)
            }
            return .scalar(name: name, schema: schema)
        }
    }

    private func declaredType(
        _ declaration: SwiftTypeDeclaration, at path: [String], arguments: [SwiftCodedType], type: SwiftTypeSyntax,
        property: String
    ) throws(SwiftSchemaError) -> SwiftCodedType {
        switch declaration.kind {
        case .struct:
            guard declaration.genericParameters.count == arguments.count else {
                throw Self.argumentCountMismatch(type, expected: declaration.genericParameters.count, property: property)
            }
            let name = path.joined(separator: ".")
            let argumentNames = arguments.map { "_" + $0.definitionName }.joined()
            return .structure(
                SwiftStructUse(
                    path: path, declaration: declaration,
                    generics: Dictionary(uniqueKeysWithValues: zip(declaration.genericParameters, arguments)),
                    definitionName: name + argumentNames))
        case .enum:
            return .enumeration(try enumeration(declaration, at: path, type: type, property: property))
        case .class, .actor, .protocol:
            throw SwiftSchemaError(
                "unsupported type '\(type.text)' for property '\(property)': '\(declaration.name)' is \(declaration.kind == .actor ? "an" : "a") \(declaration.kind.rawValue); only structs and enums are supported",
                at: type.location)
        }
    }

    /// The innermost declaration named `name` visible from `scope`.
    private func lookup(_ name: String, from scope: [String]) -> Declared? {
        var scope = scope
        while true {
            let members = scope.isEmpty ? file : file.type(at: scope)?.members
            if let members, let found = Self.member(name, in: members, at: scope) { return found }
            if scope.isEmpty { return nil }
            scope.removeLast()
        }
    }

    private static func member(_ name: String, in members: SwiftMembers, at path: [String]) -> Declared? {
        if let type = members.types.first(where: { $0.name == name }) { return .type(path: path + [name], declaration: type) }
        if let alias = members.typeAliases.first(where: { $0.name == name }) { return .alias(alias, scope: path) }
        return nil
    }

    private static func unsupported(_ type: SwiftTypeSyntax, property: String) -> SwiftSchemaError {
        SwiftSchemaError("unsupported type '\(type.text)' for property '\(property)'", at: type.location)
    }

    private static func argumentCountMismatch(_ type: SwiftTypeSyntax, expected: Int, property: String) -> SwiftSchemaError {
        SwiftSchemaError(
            "type '\(type.text)' for property '\(property)' needs \(expected) generic argument\(expected == 1 ? "" : "s")",
            at: type.location)
    }
}
