/// Turns the keywords of one schema object into checks, compiling its subschemas through the
/// compiler. A keyword of the wrong JSON type is a compile error naming it: a schema that says
/// something the registry would silently not check must not be published.
struct KeywordReader {
    let object: JSONObject
    let pointer: String
    let base: String
    let resource: Int
    let node: Int
    let maxPatternBytes: Int
    var keywords: [SchemaKeyword] = []

    init(object: JSONObject, pointer: String, base: String, resource: Int, node: Int, maxPatternBytes: Int) {
        self.maxPatternBytes = maxPatternBytes
        self.object = object
        self.pointer = pointer
        self.base = base
        self.resource = resource
        self.node = node
    }

    private func path(_ keyword: String) -> String { pointer + "/" + SchemaReference.escaped(keyword) }

    private mutating func add(_ keyword: String, _ check: SchemaCheck) {
        keywords.append(SchemaKeyword(name: keyword, path: path(keyword), check: check))
    }

    /// Every keyword the dialect defines, in evaluation order.
    mutating func readAll(dialect: SchemaDialect, into compiler: inout SchemaCompiler) throws(SchemaCompileError) {
        let is2020 = dialect == .draft2020_12
        _ = try schemaMap("$defs", into: &compiler)
        _ = try schemaMap("definitions", into: &compiler)
        try reference("$ref", dynamic: false, into: &compiler)
        if is2020 { try reference("$dynamicRef", dynamic: true, into: &compiler) }
        try readValueKeywords()
        try readArrayKeywords(is2020: is2020, into: &compiler)
        try readObjectKeywords(is2020: is2020, into: &compiler)
        try readApplicators(into: &compiler)
        if is2020 {
            if let node = try schema("unevaluatedItems", into: &compiler) { add("unevaluatedItems", .unevaluatedItems(node)) }
            if let node = try schema("unevaluatedProperties", into: &compiler) {
                add("unevaluatedProperties", .unevaluatedProperties(node))
            }
        }
    }

    mutating func reference(_ keyword: String, dynamic: Bool, into compiler: inout SchemaCompiler) throws(SchemaCompileError) {
        guard let value = object[keyword] else { return }
        guard case .string(let reference) = value else { throw SchemaCompiler.mustBe("a string (a URI reference)", keyword, at: pointer) }
        compiler.pending.append(
            .init(node: node, keyword: keywords.count, reference: reference, base: base, path: path(keyword), isDynamic: dynamic))
        add(keyword, dynamic ? .dynamicReference(initial: -1, anchor: nil) : .reference(-1))
    }

    private mutating func readValueKeywords() throws(SchemaCompileError) {
        if let value = object["type"] {
            // A name JSON Schema does not define ("date", "String") is left out, and publishing
            // warns about it with a suggestion (SchemaTypeNames): the registry has always
            // accepted such schemas, and refusing them now would break their pipelines.
            let names: [String]
            switch value {
            case .string(let name): names = [name]
            case .array(let items): names = items.compactMap(\.stringValue)
            default: names = []
            }
            let known = names.filter(Self.typeNames.containsExactly)
            if !known.isEmpty { add("type", .types(known)) }
        }
        if let value = object["enum"] {
            guard case .array(let options) = value else { throw SchemaCompiler.mustBe("an array of values", "enum", at: pointer) }
            add("enum", .enumeration(options))
        }
        if let value = object["const"] { add("const", .constant(value)) }
        if let count = try count("minLength") { add("minLength", .minLength(count)) }
        if let count = try count("maxLength") { add("maxLength", .maxLength(count)) }
        if let value = object["pattern"] {
            guard case .string(let pattern) = value else { throw SchemaCompiler.mustBe("a string (a regular expression)", "pattern", at: pointer) }
            add("pattern", .pattern(try regex(pattern, at: path("pattern"))))
        }
        for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] {
            guard let value = object[keyword] else { continue }
            guard case .number(let lexeme) = value else { throw SchemaCompiler.mustBe("a number", keyword, at: pointer) }
            let number = JSONNumber(lexeme)
            switch keyword {
            case "minimum": add(keyword, .minimum(number))
            case "maximum": add(keyword, .maximum(number))
            case "exclusiveMinimum": add(keyword, .exclusiveMinimum(number))
            case "exclusiveMaximum": add(keyword, .exclusiveMaximum(number))
            default:
                guard JSONNumber("0") < number else { throw SchemaCompiler.mustBe("a number greater than 0", keyword, at: pointer) }
                add(keyword, .multipleOf(number))
            }
        }
        if let value = object["format"] {
            guard case .string(let format) = value else { throw SchemaCompiler.mustBe("a string (a format name)", "format", at: pointer) }
            add("format", .format(format))
        }
    }

    private mutating func readArrayKeywords(is2020: Bool, into compiler: inout SchemaCompiler) throws(SchemaCompileError) {
        var tupleLength = 0
        if is2020 {
            if let nodes = try schemaArray("prefixItems", into: &compiler) {
                add("prefixItems", .prefixItems(nodes))
                tupleLength = nodes.count
            }
            if object["items"]?.arrayValue != nil {
                throw SchemaCompiler.mustBe("a schema in draft 2020-12 (a tuple is prefixItems)", "items", at: pointer)
            }
            if let node = try schema("items", into: &compiler) { add("items", .items(node, start: tupleLength)) }
        } else if case .array = object["items"] {
            let nodes = try schemaArray("items", into: &compiler) ?? []
            add("items", .prefixItems(nodes))
            if let node = try schema("additionalItems", into: &compiler) { add("additionalItems", .items(node, start: nodes.count)) }
        } else if let node = try schema("items", into: &compiler) {
            add("items", .items(node, start: 0))
        }
        if let node = try schema("contains", into: &compiler) {
            let minimum = is2020 ? try count("minContains") ?? 1 : 1
            let maximum = is2020 ? try count("maxContains") : nil
            add("contains", .contains(node, min: minimum, max: maximum))
        }
        if let count = try count("minItems") { add("minItems", .minItems(count)) }
        if let count = try count("maxItems") { add("maxItems", .maxItems(count)) }
        if let value = object["uniqueItems"] {
            guard case .bool(let unique) = value else { throw SchemaCompiler.mustBe("true or false", "uniqueItems", at: pointer) }
            if unique { add("uniqueItems", .uniqueItems) }
        }
    }

    private mutating func readObjectKeywords(is2020: Bool, into compiler: inout SchemaCompiler) throws(SchemaCompileError) {
        if let names = try names("required", at: path("required")) { add("required", .required(names)) }
        if let count = try count("minProperties") { add("minProperties", .minProperties(count)) }
        if let count = try count("maxProperties") { add("maxProperties", .maxProperties(count)) }
        var declared: Set<ExactName> = []
        if let members = try schemaMap("properties", into: &compiler) {
            var byName: [ExactName: Int] = [:]
            for (name, node) in members where byName[ExactName(name)] == nil { byName[ExactName(name)] = node }
            declared = Set(byName.keys)
            add("properties", .properties(byName))
        }
        var patterns: [ECMARegex] = []
        if let members = try schemaMap("patternProperties", into: &compiler) {
            var compiled: [(ECMARegex, Int)] = []
            for (pattern, node) in members {
                compiled.append((try regex(pattern, at: path("patternProperties") + "/" + SchemaReference.escaped(pattern)), node))
            }
            patterns = compiled.map(\.0)
            add("patternProperties", .patternProperties(compiled))
        }
        if let node = try schema("additionalProperties", into: &compiler) {
            add("additionalProperties", .additionalProperties(node, declared: declared, patterns: patterns))
        }
        if let node = try schema("propertyNames", into: &compiler) { add("propertyNames", .propertyNames(node)) }
        if is2020 {
            if let value = object["dependentRequired"] {
                guard case .object(let members) = value else { throw SchemaCompiler.mustBe("an object of name lists", "dependentRequired", at: pointer) }
                var lists: [(String, [String])] = []
                for member in members.members {
                    let memberPath = path("dependentRequired") + "/" + SchemaReference.escaped(member.key)
                    lists.append((member.key, try Self.names(member.value, at: memberPath)))
                }
                add("dependentRequired", .dependentRequired(lists))
            }
            if let members = try schemaMap("dependentSchemas", into: &compiler) { add("dependentSchemas", .dependentSchemas(members)) }
        }
        // Draft 7's `dependencies`, which 2020-12 split in two, is honoured in both dialects so
        // schemas written for older generators keep their meaning.
        if let value = object["dependencies"] {
            guard case .object(let members) = value else { throw SchemaCompiler.mustBe("an object", "dependencies", at: pointer) }
            var lists: [(String, [String])] = []
            var schemas: [(String, Int)] = []
            for member in members.members {
                let memberPath = path("dependencies") + "/" + SchemaReference.escaped(member.key)
                if case .array = member.value {
                    lists.append((member.key, try Self.names(member.value, at: memberPath)))
                } else {
                    schemas.append((member.key, try compiler.compileSchema(member.value, at: memberPath, base: base, resource: resource)))
                }
            }
            if !lists.isEmpty { add("dependencies", .dependentRequired(lists)) }
            if !schemas.isEmpty { add("dependencies", .dependentSchemas(schemas)) }
        }
    }

    private mutating func readApplicators(into compiler: inout SchemaCompiler) throws(SchemaCompileError) {
        if let nodes = try schemaArray("allOf", into: &compiler) { add("allOf", .allOf(nodes)) }
        if let nodes = try schemaArray("anyOf", into: &compiler) { add("anyOf", .anyOf(nodes)) }
        if let nodes = try schemaArray("oneOf", into: &compiler) { add("oneOf", .oneOf(nodes)) }
        if let node = try schema("not", into: &compiler) { add("not", .not(node)) }
        let then = try schema("then", into: &compiler)
        let otherwise = try schema("else", into: &compiler)
        if let condition = try schema("if", into: &compiler) { add("if", .conditional(if: condition, then: then, else: otherwise)) }
    }

    // MARK: - Typed reads

    private static let typeNames = ["array", "boolean", "integer", "null", "number", "object", "string"]

    private func count(_ keyword: String) throws(SchemaCompileError) -> Int? {
        guard let value = object[keyword] else { return nil }
        guard case .number(let lexeme) = value, value.isIntegral, let double = Double(lexeme), double >= 0 else {
            throw SchemaCompiler.mustBe("a non-negative integer", keyword, at: pointer)
        }
        return Int(exactly: min(double, Double(Int32.max))) ?? Int(Int32.max)
    }

    private func names(_ keyword: String, at path: String) throws(SchemaCompileError) -> [String]? {
        guard let value = object[keyword] else { return nil }
        return try Self.names(value, at: path)
    }

    private static func names(_ value: JSONValue, at path: String) throws(SchemaCompileError) -> [String] {
        guard case .array(let items) = value else { throw SchemaCompileError(path: path, message: "must be an array of property names") }
        let names = items.compactMap(\.stringValue)
        guard names.count == items.count else { throw SchemaCompileError(path: path, message: "must be an array of property names (strings)") }
        return names
    }

    private func regex(_ pattern: String, at path: String) throws(SchemaCompileError) -> ECMARegex {
        guard pattern.utf8.count <= maxPatternBytes else {
            throw SchemaCompileError(path: path, message: "is a pattern of \(ClientText.grouped(pattern.utf8.count)) bytes; the limit is \(ClientText.grouped(maxPatternBytes))")
        }
        do {
            return try ECMARegex(pattern)
        } catch {
            throw SchemaCompileError(path: path, message: "is not a regular expression the registry can use (\(error.message)): \(ClientText.shown(pattern))")
        }
    }

    func schema(_ keyword: String, into compiler: inout SchemaCompiler) throws(SchemaCompileError) -> Int? {
        guard let value = object[keyword] else { return nil }
        return try compiler.compileSchema(value, at: path(keyword), base: base, resource: resource)
    }

    func schemaArray(_ keyword: String, into compiler: inout SchemaCompiler) throws(SchemaCompileError) -> [Int]? {
        guard let value = object[keyword] else { return nil }
        guard case .array(let items) = value, !items.isEmpty else { throw SchemaCompiler.mustBe("a non-empty array of schemas", keyword, at: pointer) }
        var nodes: [Int] = []
        for (index, item) in items.enumerated() {
            nodes.append(try compiler.compileSchema(item, at: path(keyword) + "/\(index)", base: base, resource: resource))
        }
        return nodes
    }

    func schemaMap(_ keyword: String, into compiler: inout SchemaCompiler) throws(SchemaCompileError) -> [(String, Int)]? {
        guard let value = object[keyword] else { return nil }
        guard case .object(let members) = value else { throw SchemaCompiler.mustBe("an object of schemas", keyword, at: pointer) }
        var nodes: [(String, Int)] = []
        for member in members.members {
            let memberPath = path(keyword) + "/" + SchemaReference.escaped(member.key)
            nodes.append((member.key, try compiler.compileSchema(member.value, at: memberPath, base: base, resource: resource)))
        }
        return nodes
    }
}
