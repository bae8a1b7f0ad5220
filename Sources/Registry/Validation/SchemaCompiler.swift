/// Reads a schema document once: every schema location becomes a node, every `$id`,
/// `$anchor` and `$dynamicAnchor` is registered, and once the whole document is read each
/// reference is resolved to a node (compiling a location no keyword reached, for a JSON
/// pointer into it). Each location and each reference is handled once, so the work is linear
/// in the document's size however often a definition is used.
struct SchemaCompiler {
    let root: JSONValue
    let embeddedSchemas: [String]
    let limits: SchemaLimits
    let dialect: SchemaDialect

    var nodes: [SchemaNode] = []
    var resources: [SchemaResource] = []
    var nodeBases: [String] = []
    var nodeAtPointer: [ExactName: Int] = [:]
    /// Absolute URIs (no fragment) of resources, and `uri#anchor` of anchors → schema pointer.
    var identifiers: [ExactName: String] = [:]
    var dynamicAnchorNumbers: [ExactName: Int] = [:]
    var unknownKeywords: [UnknownKeyword] = []
    var pending: [PendingReference] = []
    var resolutions = 0

    struct PendingReference {
        let node: Int
        let keyword: Int
        let reference: String
        let base: String
        let path: String
        let isDynamic: Bool
    }

    init(root: JSONValue, embeddedSchemas: [String], limits: SchemaLimits, defaultDialect: SchemaDialect) throws(SchemaCompileError) {
        self.root = root
        self.embeddedSchemas = embeddedSchemas
        self.limits = limits
        if let declared = root["$schema"] {
            guard case .string(let uri) = declared else { throw Self.mustBe("a string (the dialect's URI)", "$schema", at: "") }
            guard let named = SchemaDialect(uri: uri) else { throw Self.unknownDialect(uri, at: "/$schema") }
            dialect = named
        } else {
            dialect = defaultDialect
        }
    }

    mutating func compile() throws(SchemaCompileError) -> CompiledSchema {
        resources.append(SchemaResource(uri: SchemaReference.documentBase))
        identifiers[ExactName(SchemaReference.documentBase)] = ""
        let rootNode = try compileSchema(root, at: "", base: SchemaReference.documentBase, resource: 0, isRoot: true)
        var embedded: [(name: String, node: Int)] = []
        for name in embeddedSchemas {
            guard let value = root[name] else { continue }
            let base = nodeBases[rootNode]
            let node = try compileSchema(
                value, at: "/" + SchemaReference.escaped(name), base: base, resource: nodes[rootNode].resource)
            embedded.append((name, node))
        }
        while let reference = pending.popLast() {
            try resolve(reference)
        }
        collapseReferenceChains()
        return CompiledSchema(
            dialect: dialect, unknownKeywords: unknownKeywords, nodes: nodes, resources: resources,
            rootNode: rootNode, embeddedNodes: embedded, limits: limits, referenceResolutions: resolutions)
    }

    // MARK: - Locations

    /// Compiles the schema at `pointer` (once: a location already compiled returns its node).
    mutating func compileSchema(
        _ value: JSONValue, at pointer: String, base: String, resource: Int, isRoot: Bool = false
    ) throws(SchemaCompileError) -> Int {
        if let existing = nodeAtPointer[ExactName(pointer)] { return existing }
        guard nodes.count < limits.maxNodes else {
            throw SchemaCompileError(
                path: pointer, message: "the schema has more than \(ClientText.grouped(limits.maxNodes)) subschemas; split it or simplify it")
        }
        switch value {
        case .bool(let allowed):
            return addNode(SchemaNode(path: pointer, resource: resource, isFalse: !allowed), base: base, at: pointer)
        case .object(let object):
            return try compileObject(object, at: pointer, base: base, resource: resource, isRoot: isRoot)
        default:
            throw SchemaCompileError(path: pointer, message: "must be a schema (an object or a boolean), not \(value.typeName)")
        }
    }

    private mutating func addNode(_ node: SchemaNode, base: String, at pointer: String) -> Int {
        nodes.append(node)
        nodeBases.append(base)
        nodeAtPointer[ExactName(pointer)] = nodes.count - 1
        return nodes.count - 1
    }

    private mutating func compileObject(
        _ object: JSONObject, at pointer: String, base inherited: String, resource inheritedResource: Int, isRoot: Bool
    ) throws(SchemaCompileError) -> Int {
        let ignoresSiblings = dialect == .draft7 && object["$ref"] != nil
        var base = inherited
        var resource = inheritedResource
        if !isRoot, case .string(let uri) = object["$schema"], SchemaDialect(uri: uri) == nil {
            throw Self.unknownDialect(uri, at: pointer + "/$schema")
        }
        if !ignoresSiblings, let id = object["$id"] {
            guard case .string(let text) = id else { throw Self.mustBe("a string (a URI reference)", "$id", at: pointer) }
            let (uri, fragment) = SchemaReference.split(SchemaReference.resolve(text, against: base))
            if !uri.hasSameBytes(as: base) {
                base = uri
                resources.append(SchemaResource(uri: uri))
                resource = resources.count - 1
                identifiers[ExactName(uri)] = pointer
            }
            if !fragment.isEmpty {
                guard dialect == .draft7 else {
                    throw SchemaCompileError(path: pointer + "/$id", message: "must not have a fragment; name an anchor with $anchor")
                }
                identifiers[ExactName(uri + "#" + fragment)] = pointer
            }
        }
        let index = addNode(SchemaNode(path: pointer, resource: resource, swiftType: object["x-swift-type"]?.stringValue), base: base, at: pointer)
        var reader = KeywordReader(object: object, pointer: pointer, base: base, resource: resource, node: index, maxPatternBytes: limits.maxPatternBytes)
        if ignoresSiblings {
            try reader.reference("$ref", dynamic: false, into: &self)
            _ = try reader.schemaMap("definitions", into: &self)
        } else {
            if dialect == .draft2020_12 { try registerAnchors(of: object, at: pointer, base: base, resource: resource, node: index) }
            try reader.readAll(dialect: dialect, into: &self)
            noteUnknownKeywords(of: object, at: pointer, isRoot: isRoot)
        }
        nodes[index].keywords = reader.keywords
        return index
    }

    private mutating func registerAnchors(
        of object: JSONObject, at pointer: String, base: String, resource: Int, node: Int
    ) throws(SchemaCompileError) {
        for keyword in ["$anchor", "$dynamicAnchor"] {
            guard let value = object[keyword] else { continue }
            guard case .string(let name) = value, Self.isAnchorName(name) else {
                throw Self.mustBe("a plain name (a letter or underscore, then letters, digits, -, _ and .)", keyword, at: pointer)
            }
            identifiers[ExactName(base + "#" + name)] = pointer
            if keyword == "$dynamicAnchor" {
                resources[resource].dynamicAnchors[dynamicAnchorNumber(name)] = node
            }
        }
    }

    mutating func dynamicAnchorNumber(_ name: String) -> Int {
        if let number = dynamicAnchorNumbers[ExactName(name)] { return number }
        dynamicAnchorNumbers[ExactName(name)] = dynamicAnchorNumbers.count
        return dynamicAnchorNumbers.count - 1
    }

    private mutating func noteUnknownKeywords(of object: JSONObject, at pointer: String, isRoot: Bool) {
        let known = dialect.keywords
        for key in object.keys where !key.hasBytePrefix("x-") && !known.contains(ExactName(key)) {
            if isRoot && embeddedSchemas.containsExactly(key) { continue }
            unknownKeywords.append(UnknownKeyword(path: pointer, keyword: key, suggestion: dialect.suggestion(for: key)))
        }
    }

    // MARK: - References

    /// Points every `$ref` past the schemas that hold nothing but another `$ref` within the
    /// same resource, so a chain of a thousand such steps costs one step per check, and cannot
    /// reach the evaluation depth bound: the schemas along it add no check and no annotation.
    /// A chain that loops is left as written, for the evaluator's loop detection. Linear: each
    /// node's end is found once.
    private mutating func collapseReferenceChains() {
        var ends: [Int: Int] = [:]
        func end(of start: Int) -> Int {
            var path: [Int] = []
            var current = start
            var seen: Set<Int> = []
            while let next = pureReference(current), nodes[next].resource == nodes[current].resource {
                if let known = ends[current] {
                    current = known
                    break
                }
                guard seen.insert(current).inserted else { return start }
                path.append(current)
                current = next
            }
            for node in path { ends[node] = current }
            return current
        }
        for node in nodes.indices {
            for keyword in nodes[node].keywords.indices {
                guard case .reference(let target) = nodes[node].keywords[keyword].check, target >= 0,
                    nodes[target].resource == nodes[node].resource
                else { continue }
                let last = end(of: target)
                if last != target { nodes[node].keywords[keyword].check = .reference(last) }
            }
        }
    }

    /// The target of a schema that is only a `$ref`.
    private func pureReference(_ node: Int) -> Int? {
        guard !nodes[node].isFalse, nodes[node].keywords.count == 1,
            case .reference(let target) = nodes[node].keywords[0].check, target >= 0
        else { return nil }
        return target
    }

    private mutating func resolve(_ reference: PendingReference) throws(SchemaCompileError) {
        resolutions += 1
        let absolute = SchemaReference.resolve(reference.reference, against: reference.base)
        let (uri, rawFragment) = SchemaReference.split(absolute)
        guard let resourcePointer = identifiers[ExactName(uri)] else {
            throw SchemaCompileError(
                path: reference.path,
                message: "refers to \(ClientText.shown(reference.reference)), which no $id in this document defines; the registry does not fetch remote schemas")
        }
        guard let fragment = SchemaReference.percentDecoded(rawFragment) else {
            throw SchemaCompileError(path: reference.path, message: "has a fragment that is not percent-encoded UTF-8")
        }
        let target: Int
        if fragment.isEmpty {
            target = try node(at: resourcePointer, reference: reference)
        } else if fragment.hasBytePrefix("/") {
            target = try node(at: resourcePointer + fragment, reference: reference)
        } else if let anchorPointer = identifiers[ExactName(uri + "#" + fragment)] {
            target = try node(at: anchorPointer, reference: reference)
        } else {
            throw SchemaCompileError(
                path: reference.path, message: "refers to the anchor \(ClientText.quoted(fragment)), which this document does not define")
        }
        if reference.isDynamic {
            var anchor: Int?
            if !fragment.isEmpty, !fragment.hasBytePrefix("/"),
                let number = dynamicAnchorNumbers[ExactName(fragment)],
                resources[nodes[target].resource].dynamicAnchors[number] == target
            {
                anchor = number
            }
            nodes[reference.node].keywords[reference.keyword].check = .dynamicReference(initial: target, anchor: anchor)
        } else {
            nodes[reference.node].keywords[reference.keyword].check = .reference(target)
        }
    }

    /// The node of the schema at a document pointer, compiling it when no keyword reached it
    /// (a pointer into `enum`'s neighbour or an unknown keyword).
    private mutating func node(at pointer: String, reference: PendingReference) throws(SchemaCompileError) -> Int {
        if let existing = nodeAtPointer[ExactName(pointer)] { return existing }
        guard let tokens = SchemaReference.pointerTokens(pointer) else {
            throw SchemaCompileError(path: reference.path, message: "has a fragment that is not a JSON pointer")
        }
        var value = root
        var owner = nodeAtPointer[ExactName("")] ?? 0
        var walked = ""
        for token in tokens {
            switch value {
            case .object(let object) where object[token] != nil: value = object[token]!
            case .array(let items) where Int(token).map({ items.indices.contains($0) }) == true: value = items[Int(token)!]
            default:
                throw SchemaCompileError(
                    path: reference.path, message: "refers to \(ClientText.shown(reference.reference)), which is not a location in this document")
            }
            walked += "/" + SchemaReference.escaped(token)
            if let found = nodeAtPointer[ExactName(walked)] { owner = found }
        }
        return try compileSchema(value, at: pointer, base: nodeBases[owner], resource: nodes[owner].resource)
    }

    // MARK: - Errors

    static func unknownDialect(_ uri: String, at path: String) -> SchemaCompileError {
        SchemaCompileError(
            path: path,
            message: "names the dialect \(ClientText.shown(uri)), which the registry does not know; it compiles draft 2020-12 (https://json-schema.org/draft/2020-12/schema) and draft 7 (http://json-schema.org/draft-07/schema#)")
    }

    static func mustBe(_ what: String, _ keyword: String, at pointer: String) -> SchemaCompileError {
        SchemaCompileError(path: pointer + "/" + SchemaReference.escaped(keyword), message: "must be \(what)")
    }

    private static func isAnchorName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }
}
