import Registry

/// Writes JSON Schema for coded types. Structs are inlined as nested objects, because the form
/// builder renders inline objects as field groups; a struct that contains itself (through an
/// array or dictionary) cannot be inlined, so it goes to `$defs` and every use is a `$ref`.
///
/// Which structs recurse is only known once a pass has run into one; the caller runs passes,
/// handing each the `recursive` list of the one before, until the list stops growing.
struct SwiftSchemaEmitter {
    let mapper: SwiftTypeMapper
    /// Definition names of structs that contain themselves, in the order they were found.
    private(set) var recursive: [String]
    /// `$defs` members, for the structs in `recursive`.
    private(set) var definitions = JSONObject()
    private var recursiveUses: [String: SwiftStructUse] = [:]
    /// The structs being written, outermost first.
    private var inProgress: [String] = []

    /// Deeper nesting is almost surely generic types growing without end (`Tree<[T]>` inside `Tree<T>`).
    private static let maxNesting = 32

    init(mapper: SwiftTypeMapper, recursive: [String]) {
        self.mapper = mapper
        self.recursive = recursive
    }

    /// The `properties` and `required` of an object schema for a struct.
    mutating func objectMembers(of use: SwiftStructUse) throws(SwiftSchemaError) -> (properties: JSONObject, required: [String]) {
        inProgress.append(use.definitionName)
        defer { inProgress.removeLast() }
        var properties = JSONObject()
        var required: [String] = []
        for coded in try SwiftCodedProperties.of(use.declaration, named: use.path.joined(separator: ".")) {
            let (schema, isOptional) = try propertySchema(coded.property, in: use)
            properties[coded.key] = .object(schema)
            if !isOptional { required.append(coded.key) }
        }
        return (properties, required)
    }

    /// Writes the definitions that recursion asked for but no `$ref` site could write (the
    /// struct was the outermost one in progress, such as ContentState itself).
    mutating func writeMissingDefinitions() throws(SwiftSchemaError) {
        while let name = recursive.first(where: { definitions[$0] == nil }), let use = recursiveUses[name] {
            definitions[name] = .object(try objectSchema(of: use))
        }
    }

    private mutating func objectSchema(of use: SwiftStructUse) throws(SwiftSchemaError) -> JSONObject {
        let (properties, required) = try objectMembers(of: use)
        var schema: JSONObject = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return schema
    }

    private mutating func propertySchema(_ property: SwiftProperty, in use: SwiftStructUse) throws(SwiftSchemaError)
        -> (schema: JSONObject, isOptional: Bool)
    {
        let syntax: SwiftTypeSyntax
        if let written = property.type { syntax = written } else { syntax = try Self.inferredType(of: property) }
        let type = try mapper.resolve(syntax, in: use.path, generics: use.generics, property: property.name)
        var schema = try schema(for: type, at: syntax.location)
        if let doc = property.doc { schema["description"] = .string(doc) }
        if let initializer = property.initializer, let value = Self.defaultValue(initializer, for: type) {
            schema["default"] = value
        }
        return (schema, type.isOptional)
    }

    private mutating func schema(for type: SwiftCodedType, at location: SourceLocation) throws(SwiftSchemaError) -> JSONObject {
        switch type {
        case .scalar(_, let schema):
            return schema
        case .optional(let wrapped):
            return Self.nullable(try schema(for: wrapped, at: location))
        case .array(let element):
            return ["type": "array", "items": .object(try schema(for: element, at: location))]
        case .dictionary(let value):
            return ["type": "object", "additionalProperties": .object(try schema(for: value, at: location))]
        case .enumeration(let use):
            return try enumerationSchema(use, at: location)
        case .structure(let use):
            return try structSchema(use, at: location)
        case .range(let bound, let closed):
            let boundSchema = JSONValue.object(try schema(for: bound, at: location))
            return [
                "type": "array", "prefixItems": [boundSchema, boundSchema], "minItems": 2, "maxItems": 2, "items": false,
                "x-swift-type": .string(closed ? "ClosedRange" : "Range"),
            ]
        }
    }

    /// A raw-value enum is its raw values; a keyed enum is `oneOf` one single-key object per
    /// case, each naming the associated values (the non-optional ones required). Extra keys
    /// inside a case's object are ignored by `JSONDecoder`, a second case key is not.
    private mutating func enumerationSchema(_ use: SwiftEnumUse, at location: SourceLocation) throws(SwiftSchemaError) -> JSONObject {
        switch use.form {
        case .rawValues(let jsonType, let values):
            return ["type": .string(jsonType), "enum": .array(values.map(\.value))]
        case .keyed(let cases):
            guard !inProgress.contains(use.name) else {
                throw SwiftSchemaError("enum '\(use.name)' contains itself; a recursive enum cannot be turned into a schema", at: location)
            }
            guard inProgress.count < Self.maxNesting else {
                throw SwiftSchemaError("types nest more than \(Self.maxNesting) levels deep at '\(use.name)'", at: location)
            }
            inProgress.append(use.name)
            defer { inProgress.removeLast() }
            var choices: [JSONValue] = []
            for enumCase in cases {
                var properties = JSONObject()
                var required: [String] = []
                for value in enumCase.associatedValues ?? [] {
                    let type = try mapper.resolve(value.type, in: use.path, generics: [:], property: "\(use.name).\(enumCase.name)")
                    properties[value.key] = .object(try schema(for: type, at: value.type.location))
                    if !type.isOptional { required.append(value.key) }
                }
                var payload: JSONObject = ["type": "object"]
                if !properties.isEmpty { payload["properties"] = .object(properties) }
                if !required.isEmpty { payload["required"] = .array(required.map { .string($0) }) }
                choices.append([
                    "type": "object", "properties": [enumCase.name: .object(payload)], "required": [.string(enumCase.name)],
                    "additionalProperties": false,
                ])
            }
            return ["oneOf": .array(choices)]
        }
    }

    private mutating func structSchema(_ use: SwiftStructUse, at location: SourceLocation) throws(SwiftSchemaError) -> JSONObject {
        let name = use.definitionName
        guard inProgress.contains(name) || recursive.contains(name) else {
            guard inProgress.count < Self.maxNesting else {
                throw SwiftSchemaError("types nest more than \(Self.maxNesting) levels deep at '\(name)'", at: location)
            }
            return try objectSchema(of: use)
        }
        if !recursive.contains(name) { recursive.append(name) }
        recursiveUses[name] = use
        if definitions[name] == nil, !inProgress.contains(name) {
            definitions[name] = .object(try objectSchema(of: use))
        }
        return ["$ref": .string("#/$defs/" + name)]
    }

    /// Adds `null` to the type (and to `enum`, which would otherwise still reject it); a
    /// `$ref` has no type to extend, so it becomes `anyOf`.
    private static func nullable(_ schema: JSONObject) -> JSONObject {
        guard case .string(let type)? = schema["type"] else { return ["anyOf": [.object(schema), ["type": "null"]]] }
        var schema = schema
        schema["type"] = [.string(type), "null"]
        if case .array(let values)? = schema["enum"] { schema["enum"] = .array(values + [.null]) }
        return schema
    }

    /// A literal initializer as `default`; `nil` and computed expressions have none to give.
    private static func defaultValue(_ initializer: SwiftInitializer, for type: SwiftCodedType) -> JSONValue? {
        var type = type
        if case .optional(let wrapped) = type { type = wrapped }
        switch (initializer, type) {
        case (.integer(let lexeme), .scalar(_, let schema)) where schema["type"] == "integer" || schema["type"] == "number":
            return .number(lexeme)
        case (.float(let lexeme), .scalar(_, let schema)) where schema["type"] == "number":
            return .number(lexeme)
        case (.string(let value), .scalar(_, let schema)) where schema["type"] == "string":
            return .string(value)
        case (.boolean(let value), .scalar(_, let schema)) where schema["type"] == "boolean":
            return .bool(value)
        case (.member(_, let caseName), .enumeration(let use)):
            switch use.form {
            case .rawValues(_, let values): return values.first { $0.caseName == caseName }?.value
            case .keyed(let cases):
                guard cases.contains(where: { $0.name == caseName && $0.associatedValues == nil }) else { return nil }
                return [caseName: [:]]
            }
        default:
            return nil
        }
    }

    /// Swift infers `var count = 0` as `Int`; the same inference for literals, `Type.member`
    /// and initializer calls such as `UUID()` or `URL(string: "…")!`.
    private static func inferredType(of property: SwiftProperty) throws(SwiftSchemaError) -> SwiftTypeSyntax {
        let name: [String]
        switch property.initializer {
        case .call(let type, let isOptional)?:
            let named = SwiftTypeSyntax(
                kind: .named(type.map { .init(name: $0, arguments: []) }), text: type.joined(separator: "."),
                location: property.location)
            guard isOptional else { return named }
            return SwiftTypeSyntax(kind: .optional(named), text: named.text + "?", location: property.location)
        case .integer?: name = ["Int"]
        case .float?: name = ["Double"]
        case .string?: name = ["String"]
        case .boolean?: name = ["Bool"]
        case .member(let qualifier, _)? where !qualifier.isEmpty: name = qualifier
        default:
            throw SwiftSchemaError(
                "property '\(property.name)' needs a type annotation: its type cannot be inferred from its initial value",
                at: property.location)
        }
        return SwiftTypeSyntax(
            kind: .named(name.map { .init(name: $0, arguments: []) }), text: name.joined(separator: "."),
            location: property.location)
    }
}
