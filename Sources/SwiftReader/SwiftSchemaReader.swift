import Registry

/// Turns the Swift declaration of a Live Activity (a struct conforming to `ActivityAttributes`)
/// into the `jsonSchema` the registry publishes, so a team can generate the schema from the app's
/// own source instead of writing it by hand and watching it drift.
///
/// The source is read, not compiled: the reader follows what synthesized `Codable` would encode
/// with `JSONEncoder`'s default strategies and rejects, with a file and line, whatever it cannot
/// follow (a hand-written `init(from:)`, property wrappers, tuples, `Set`, types declared in none
/// of the files). Several files are read as one target: a type declared in one file is visible in
/// all, and an extension in any file adds its nested types to the type it extends.
///
/// The schema's shape:
/// * `ContentState`'s coded properties are the root `properties`; the non-optional ones are
///   listed in the root `required` (valid JSON Schema; journeys still never have to fill them).
/// * The attributes struct's own coded properties go to `attributes.properties`, the
///   non-optional ones to `attributes.required`. `attributes` is always written, with empty
///   `properties` when the struct has none: the type then says there are no attributes, and the
///   journey editor should not offer a free name/value list for them.
/// * The struct's doc comment becomes the root `description`, a property's its `description`.
/// * Nested structs are inlined; a struct that contains itself goes to `$defs` and is used by `$ref`.
/// * Every scalar states what `JSONDecoder` accepts (integer ranges, `x-swift-type` for `Date`,
///   `UUID`, `URL`, `Float`, `Decimal`); ranges are `[lower, upper]` arrays; enums are their raw
///   values or, without a `Codable` raw type, `oneOf` the single-key objects Codable writes.
/// * Keys follow declaration order; every `required` list is left out when it would be empty.
public enum SwiftSchemaReader {
    /// The schema of the `ActivityAttributes` struct `typeName` declared in `source`.
    ///
    /// `typeName` is usually the `attributesType` the schema is published under, so a bare name
    /// is also looked for among nested types (when only one type has it); a dotted name
    /// (`Flights.Attributes`) picks one of several.
    public static func schema(fromSwiftSource source: String, typeName: String) throws(SwiftSchemaError) -> JSONValue {
        try schema(from: [SwiftDeclarationReader.read(source)], typeName: typeName, start: .start)
    }

    /// The schema of `typeName` declared in any of `files`, read as the files of one target.
    /// Errors name the file by the path given here.
    public static func schema(fromSwiftFiles files: [SwiftSourceFile], typeName: String) throws(SwiftSchemaError) -> JSONValue {
        var declarations: [SwiftMembers] = []
        for file in files { declarations.append(try SwiftDeclarationReader.read(file.text, file: file.path)) }
        let start = SourceLocation.start(of: files.count == 1 ? files[0].path : nil)
        return try schema(from: declarations, typeName: typeName, start: start)
    }

    private static func schema(from files: [SwiftMembers], typeName: String, start: SourceLocation)
        throws(SwiftSchemaError) -> JSONValue
    {
        let file = SwiftMembers.target(files)
        let path = try attributesPath(typeName, in: file, start: start)
        let declaration = file.type(at: path)!
        guard declaration.kind == .struct, declaration.genericParameters.isEmpty else {
            throw SwiftSchemaError("'\(typeName)' must be a non-generic struct to be an ActivityAttributes type", at: declaration.location)
        }
        guard declaration.conforms(to: "ActivityAttributes") else {
            throw SwiftSchemaError("'\(typeName)' does not conform to ActivityAttributes", at: declaration.location)
        }
        let mapper = SwiftTypeMapper(file: file)
        let attributes = SwiftStructUse(
            path: path, declaration: declaration, generics: [:], definitionName: path.joined(separator: "."))
        let contentState = try contentStateUse(of: declaration, named: typeName, at: path, mapper: mapper)

        let (content, attributeMembers, definitions) = try emit(contentState, attributes, mapper: mapper)
        for key in attributeMembers.properties.keys where content.properties[key] != nil {
            let property = try SwiftCodedProperties.of(declaration, named: typeName).first { $0.key == key }!.property
            throw SwiftSchemaError(
                "property '\(property.name)' uses the key '\(key)', which ContentState also uses; the registry needs each field name once",
                at: property.location)
        }
        var root: JSONObject = ["type": "object"]
        if let doc = declaration.doc { root["description"] = .string(doc) }
        root["properties"] = .object(content.properties)
        if !content.required.isEmpty { root["required"] = .array(content.required.map { .string($0) }) }
        var attributesSection: JSONObject = ["properties": .object(attributeMembers.properties)]
        if !attributeMembers.required.isEmpty {
            attributesSection["required"] = .array(attributeMembers.required.map { .string($0) })
        }
        root["attributes"] = .object(attributesSection)
        if !definitions.isEmpty { root["$defs"] = .object(definitions) }
        return try checked(.object(root), declaredAt: declaration.location)
    }

    private typealias ObjectMembers = (properties: JSONObject, required: [String])

    /// Runs emitter passes until no new recursive struct turns up, so that every use of a
    /// recursive struct, the first one included, is a `$ref`.
    private static func emit(_ contentState: SwiftStructUse, _ attributes: SwiftStructUse, mapper: SwiftTypeMapper)
        throws(SwiftSchemaError) -> (content: ObjectMembers, attributes: ObjectMembers, definitions: JSONObject)
    {
        var recursive: [String] = []
        while true {
            var emitter = SwiftSchemaEmitter(mapper: mapper, recursive: recursive)
            let content = try emitter.objectMembers(of: contentState)
            let attributeMembers = try emitter.objectMembers(of: attributes)
            try emitter.writeMissingDefinitions()
            if emitter.recursive.count == recursive.count { return (content, attributeMembers, emitter.definitions) }
            recursive = emitter.recursive
        }
    }

    private static func attributesPath(_ typeName: String, in file: SwiftMembers, start: SourceLocation)
        throws(SwiftSchemaError) -> [String]
    {
        let path = typeName.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if file.type(at: path) != nil { return path }
        let matches = path.count == 1 ? nestedPaths(named: typeName, in: file, under: []) : []
        guard matches.count <= 1 else {
            throw SwiftSchemaError(
                "more than one type is named '\(typeName)'; give its full name, such as '\(matches[0].joined(separator: "."))'",
                at: start)
        }
        guard let match = matches.first else { throw SwiftSchemaError("no type named '\(typeName)' in the source", at: start) }
        return match
    }

    private static func nestedPaths(named name: String, in members: SwiftMembers, under prefix: [String]) -> [[String]] {
        members.types.flatMap { type in
            let path = prefix + [type.name]
            return (type.name == name && !prefix.isEmpty ? [path] : []) + nestedPaths(named: name, in: type.members, under: path)
        }
    }

    /// `ContentState` is usually a nested struct but may be a type alias of one.
    private static func contentStateUse(
        of declaration: SwiftTypeDeclaration, named typeName: String, at path: [String], mapper: SwiftTypeMapper
    ) throws(SwiftSchemaError) -> SwiftStructUse {
        let name = "ContentState"
        let members = declaration.members
        guard members.types.contains(where: { $0.name == name }) || members.typeAliases.contains(where: { $0.name == name }) else {
            throw SwiftSchemaError("'\(typeName)' declares no nested struct ContentState", at: declaration.location)
        }
        let syntax = SwiftTypeSyntax(kind: .named([.init(name: name, arguments: [])]), text: name, location: declaration.location)
        guard case .structure(let use) = try mapper.resolve(syntax, in: path, generics: [:], property: name) else {
            throw SwiftSchemaError("ContentState of '\(typeName)' must be a struct", at: declaration.location)
        }
        return use
    }

    /// The registry's own rules are the last word; a generated schema that breaks them (too
    /// large, nested too deep) is reported here rather than at publishing time.
    private static func checked(_ schema: JSONValue, declaredAt location: SourceLocation) throws(SwiftSchemaError) -> JSONValue {
        do {
            _ = try SchemaRules.validate(JSONWriter.string(schema))
        } catch {
            throw SwiftSchemaError("the generated schema breaks the registry's rules: \(error.message)", at: location)
        }
        return schema
    }
}

/// One Swift file: its path as the caller names it (messages quote it) and its text.
public struct SwiftSourceFile: Sendable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
