/// The declarations the reader keeps from a Swift file: types, their stored and computed
/// properties, enum cases and type aliases. Everything else (function bodies, expressions) is
/// skipped, because a schema follows only what synthesized `Codable` would encode.
struct SwiftMembers: Sendable {
    var properties: [SwiftProperty] = []
    var cases: [SwiftEnumCase] = []
    var types: [SwiftTypeDeclaration] = []
    var typeAliases: [SwiftTypeAlias] = []
    /// Only the file level holds extensions; `mergingExtensions()` folds them into their types.
    var extensions: [SwiftExtension] = []
    /// A hand-written `init(from:)` or `encode(to:)`: the coded form is then the author's
    /// code, which a schema cannot follow.
    var customCoding: [SwiftCustomCoding] = []

    /// The type at a dotted path from this level, such as `["FlightAttributes", "ContentState"]`.
    func type(at path: some Collection<String>) -> SwiftTypeDeclaration? {
        guard let name = path.first, let type = types.first(where: { $0.name == name }) else { return nil }
        return path.count == 1 ? type : type.members.type(at: path.dropFirst())
    }

    /// The declarations of several files of one target, which see each other's types as the
    /// compiler does, with every extension merged into the type it extends wherever it is declared.
    static func target(_ files: [SwiftMembers]) -> SwiftMembers {
        var combined = SwiftMembers()
        for file in files {
            combined.types += file.types
            combined.typeAliases += file.typeAliases
            combined.extensions += file.extensions
        }
        return combined.mergingExtensions()
    }

    /// Adds each extension's nested types, aliases, conformances and custom coding to the type
    /// it extends. Extensions of types not declared in the sources (`extension Date`) are dropped.
    func mergingExtensions() -> SwiftMembers {
        var merged = self
        var pending = merged.extensions
        merged.extensions = []
        while true {
            let before = pending.count
            pending.removeAll { merged.merge($0, path: $0.extendedPath[...]) }
            if pending.count == before { return merged }
        }
    }

    private mutating func merge(_ extensionDecl: SwiftExtension, path: ArraySlice<String>) -> Bool {
        guard let name = path.first, let i = types.firstIndex(where: { $0.name == name }) else { return false }
        if path.count > 1 { return types[i].members.merge(extensionDecl, path: path.dropFirst()) }
        types[i].inheritance += extensionDecl.inheritance
        types[i].members.types += extensionDecl.members.types
        types[i].members.typeAliases += extensionDecl.members.typeAliases
        types[i].members.customCoding += extensionDecl.members.customCoding
        return true
    }
}

/// A `struct`, `enum`, `class`, `actor` or `protocol` declaration.
struct SwiftTypeDeclaration: Sendable {
    enum Kind: String, Sendable {
        case `struct`, `enum`, `class`, actor, `protocol`
    }

    var kind: Kind
    var name: String
    var location: SourceLocation
    var genericParameters: [String]
    var inheritance: [SwiftTypeSyntax]
    var members: SwiftMembers
    var doc: String?

    /// Whether the inheritance list names `protocolName`, bare or module-qualified.
    func conforms(to protocolName: String) -> Bool {
        inheritance.contains { type in
            if case .named(let components) = type.kind { components.last?.name == protocolName } else { false }
        }
    }
}

struct SwiftExtension: Sendable {
    /// `FlightAttributes.ContentState` as `["FlightAttributes", "ContentState"]`.
    var extendedPath: [String]
    var inheritance: [SwiftTypeSyntax]
    var members: SwiftMembers
}

/// One binding of a `var` or `let` declaration (`var a = 1, b = 2` gives two).
struct SwiftProperty: Sendable {
    var name: String
    var location: SourceLocation
    var isLet: Bool
    var isStatic: Bool
    var isLazy: Bool
    /// Has a getter block instead of storage; observers (`didSet`) do not make it computed.
    var isComputed: Bool
    /// The first attribute that is not a known declaration attribute (`@Published`): a
    /// property wrapper changes the coded form in ways the schema cannot follow.
    var wrapperAttribute: String?
    var type: SwiftTypeSyntax?
    var initializer: SwiftInitializer?
    var doc: String?
}

struct SwiftEnumCase: Sendable {
    var name: String
    var location: SourceLocation
    var rawValue: SwiftInitializer?
    /// nil for `case a`; the values of `case b(Int, label: String)` otherwise.
    var associatedValues: [SwiftAssociatedValue]?
}

/// One associated value of an enum case, with the key synthesized `Codable` gives it: its label,
/// or `_0`, `_1`, … by position when it has none (`_ name: T` has none either).
struct SwiftAssociatedValue: Sendable {
    var key: String
    var type: SwiftTypeSyntax
}

struct SwiftTypeAlias: Sendable {
    var name: String
    var location: SourceLocation
    var genericParameters: [String]
    var target: SwiftTypeSyntax
}

struct SwiftCustomCoding: Sendable {
    /// `init(from:)` or `encode(to:)`.
    var signature: String
    var location: SourceLocation
}

/// A type as written. The kinds with no JSON form (tuples, functions, `some P`, compositions,
/// metatypes) are kept as `unsupported`, so the error names them only if a coded property uses one.
struct SwiftTypeSyntax: Sendable {
    indirect enum Kind: Sendable {
        /// `Int`, `Swift.Int`, `Array<Int>`, `Outer.Inner<T>`.
        case named([NameComponent])
        /// `T?` or `T!`.
        case optional(SwiftTypeSyntax)
        case array(SwiftTypeSyntax)
        case dictionary(key: SwiftTypeSyntax, value: SwiftTypeSyntax)
        case unsupported
    }

    struct NameComponent: Sendable {
        var name: String
        var arguments: [SwiftTypeSyntax]
    }

    var kind: Kind
    /// The source text, quoted in messages as the author wrote it.
    var text: String
    var location: SourceLocation
}

/// A property initializer or enum raw value, kept only as far as a schema can use it.
enum SwiftInitializer: Sendable, Equatable {
    /// A JSON number lexeme in decimal (`0x10` becomes `16`, `1_000` becomes `1000`).
    case integer(String)
    /// A JSON number lexeme (`1_000.5` becomes `1000.5`).
    case float(String)
    case string(String)
    case boolean(Bool)
    /// `.boarding` or `Status.boarding`: possibly an enum case.
    case member(qualifier: [String], name: String)
    /// `UUID()`, `Leg(from: "A")` or `URL(string: "…")!`: an initializer call, whose type is
    /// the named type, optional for the standard failable initializers unless force-unwrapped.
    case call(type: [String], isOptional: Bool)
    /// Anything else, `nil` included: nothing a `default` could state.
    case expression
}
