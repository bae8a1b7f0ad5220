import Foundation
import Registry
import Testing
import TestSupport

/// The form written from shared shapes is byte for byte the form of `ReferenceForm`, which
/// describes every use of a definition afresh, on schemas that stress what sharing could get
/// wrong: definitions used at many depths, beside keywords that override theirs, in cycles,
/// past the depth limit and past the field cap.
@Suite struct FormDifferentialTests {
    @Test(arguments: 0..<500)
    func generatedSchemaGivesTheReferenceForm(seed: Int) throws {
        var generator = TrickySchemaGenerator(seed: UInt64(seed))
        let text = generator.schema()
        try expectReferenceForm(try SchemaRules.readStored(text), text)
    }

    /// Schemas on which a reuse that ignored the references being expanded, or a cycle stopped
    /// above the reused fields, would change the form.
    @Test(arguments: [
        ##"{"type":"object","properties":{"line2":{"type":"object","properties":{"gateIDs":{"$ref":"#"}}}},"attributes":{"properties":{"file":{"type":"array","items":{"$ref":"#"}}}}}"##,
        ##"{"type":"object","properties":{"$ref":{"$ref":"#"},"__":{"type":"object","properties":{"__":{"$ref":"#"}}}}}"##,
        ##"{"type":"object","properties":{"ring":{"$ref":"#/$defs/R0"},"inside":{"type":"object","properties":{"x":{"$ref":"#/$defs/R2"}}}},"$defs":{"R0":{"type":"object","properties":{"r":{"$ref":"#/$defs/R1"}}},"R1":{"type":"array","items":{"$ref":"#/$defs/R2"}},"R2":{"type":"object","properties":{"r":{"$ref":"#/$defs/R0"}}}}}"##,
    ])
    func recursiveSchemaGivesTheReferenceForm(_ text: String) throws {
        try expectReferenceForm(try SchemaRules.readStored(text), text)
    }

    @Test(arguments: FuzzRegressionTests.corpus)
    func corpusSchemaGivesTheReferenceForm(_ name: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/Fuzz/corpus").appendingPathComponent(name)
        let text = String(decoding: FuzzRegressionTests.firstPart(of: [UInt8](try Data(contentsOf: url))), as: UTF8.self)
        guard let document = try? SchemaRules.readStored(text) else { return }
        try expectReferenceForm(document, text)
    }

    private func expectReferenceForm(_ document: SchemaDocument, _ text: String) throws {
        var written: [UInt8] = []
        FormWriter.write(formOf: document, application: "APP-1", attributesType: "T\"", version: 3, into: &written)
        let expected = ReferenceForm.text(of: document, application: "APP-1", attributesType: "T\"", version: 3)
        #expect(String(decoding: written, as: UTF8.self) == expected, "\(text.prefix(300))")
        #expect(FormBuilder.form(for: document) == ReferenceForm.descriptor(of: document), "\(text.prefix(300))")
    }
}

/// Random schemas, the same for the same seed, built from the parts that decide a form:
/// `$ref`s with and without keywords beside them, recursive and mutually recursive
/// definitions, a definition used shallow and then again near the depth limit, doubling
/// chains that reach the field cap, every keyword the form reads, and names that need escaping.
struct TrickySchemaGenerator {
    private var random: SplitMix64
    /// Where the definitions are, `$defs` or `definitions`.
    private let container: String

    init(seed: UInt64) {
        random = SplitMix64(state: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        container = seed % 5 == 4 ? "definitions" : "$defs"
    }

    private static let names = [
        "gate", "estimatedTime", "flight_number", "ETA", "gateIDs", "URLString", "seat12A", "a.b", "__", "item",
        "é_ñandú", "quote\"d", "back\\slash", "tab\tx", "emoji😀Name", "FLIGHT_NUMBER", "line2", "", "$ref", "type",
    ]
    private static let definitions = ["A", "B", "C", "D", "Self"]

    mutating func schema() -> String {
        var root: [(String, Any)] = [("type", "object")]
        var properties: [(String, Any)] = pick(Self.names, count: int(0...6)).map { ($0, objectSchema(depth: 1)) }
        if chance(0.6) {
            let names = pick(Self.names.filter { name in !properties.contains { $0.0 == name } }, count: int(1...4))
            var attributes: [(String, Any)] = [("properties", Ordered(names.map { ($0, objectSchema(depth: 1)) }))]
            if chance(0.5) { attributes.append(("required", pick(names, count: int(0...names.count)))) }
            root.append(("attributes", Ordered(attributes)))
        }
        var definitions: [(String, Any)] = pick(Self.definitions, count: int(0...5)).map { ($0, schema(depth: 2)) }
        if chance(0.3) {
            definitions.removeAll { $0.0 == "Self" }
            let next = Ordered([("$ref", "#/\(container)/\(chance(0.5) ? "Self" : "Sel%66")")])
            definitions.append(
                ("Self", Ordered([("type", "object"), ("properties", Ordered([("next", next), ("child", ref("A"))]))])))
        }
        if chance(0.06) {
            // Each level uses the next twice: the form doubles per level until the cap stops it.
            let levels = int(10...15)
            for i in 0..<levels {
                let next = i + 1 < levels ? "L\(i + 1)" : "A"
                definitions.append(
                    ("L\(i)", Ordered([("type", "object"), ("properties", Ordered([("l", ref(next)), ("r", ref(next)), ("s", Ordered([("type", "string")]))]))])))
            }
            properties.append(("chain", ref("L0")))
            properties.append(("again", Ordered([("$ref", "#/\(container)/L\(int(0...levels - 1))"), ("title", "Again")])))
        }
        if chance(0.15) {
            // A definition described near the root, then again where its depth crosses the limit.
            let height = int(2...10)
            for i in 0..<height {
                let nested: Any = i + 1 < height ? ref("E\(i + 1)") : Ordered([("type", "string")])
                definitions.append(("E\(i)", Ordered([("type", "object"), ("properties", Ordered([("e", nested), ("k", Ordered([("type", "integer")]))]))])))
            }
            let links = int(50...64)
            for i in 0..<links {
                definitions.append(("C\(i)", Ordered([("type", "object"), ("properties", Ordered([("c", ref(i + 1 < links ? "C\(i + 1)" : "E0"))]))])))
            }
            properties.append(("shallow", ref("E0")))
            properties.append(("long", ref("C0")))
        }
        if chance(0.15) {
            // A ring of definitions, entered at its start and again in the middle.
            let links = int(2...12)
            for i in 0..<links {
                let next = ref("R\((i + 1) % links)")
                let schema: [(String, Any)] =
                    chance(0.5) ? [("type", "array"), ("items", next)] : [("type", "object"), ("properties", Ordered([("r", next)]))]
                definitions.append(("R\(i)", Ordered(schema)))
            }
            properties.append(("ring", ref("R0")))
            properties.append(("inside", Ordered([("type", "object"), ("properties", Ordered([("x", ref("R\(int(0...links - 1))"))]))])))
        }
        if chance(0.15) {
            // The root itself, used as a field at several depths.
            let root = Ordered([("$ref", "#")])
            properties.append(("root", root))
            properties.append(("nested", Ordered([("type", "object"), ("properties", Ordered([("again", root)]))])))
        }
        root.append(("properties", Ordered(properties)))
        if !definitions.isEmpty { root.append((container, Ordered(definitions))) }
        return Self.text(Ordered(root))
    }

    private mutating func objectSchema(depth: Int) -> Ordered {
        (schema(depth: depth) as? Ordered) ?? Ordered([])
    }

    private mutating func schema(depth: Int) -> Any {
        if chance(0.03) { return [true, 3, "text", NSNull()][int(0...3)] }
        let kind = depth > 5 ? 0.5 + double() / 2 : double()
        if kind < 0.15 {
            var members: [(String, Any)] = [("$ref", chance(0.95) ? reference() : 3)]
            if chance(0.5) {
                for key in pick(["title", "description", "default", "type", "properties", "required", "items", "enum", "maxLength"], count: int(1...3)) {
                    members.append((key, keyword(key, depth: depth)))
                }
            }
            return Ordered(members)
        }
        if kind < 0.35 {
            var members: [(String, Any)] = [("type", chance(0.8) ? "object" : ["object", "null"])]
            let names = pick(Self.names, count: int(0...4))
            members.append(("properties", Ordered(names.map { ($0, schema(depth: depth + 1)) })))
            if chance(0.5) { members.append(("required", pick(names + ["ghost"], count: int(0...2)))) }
            return Ordered(members)
        }
        if kind < 0.5 {
            var members: [(String, Any)] = [("type", chance(0.8) ? "array" : ["array", "null"])]
            switch int(0...9) {
            case 0...6: members.append(("items", schema(depth: depth + 1)))
            case 7: members.append(("items", [schema(depth: depth + 1)]))
            case 8: members += [("prefixItems", [schema(depth: depth + 1)]), ("items", schema(depth: depth + 1))]
            default: break
            }
            if chance(0.3) { members.append(("maxItems", int(0...5))) }
            return Ordered(members)
        }
        if depth <= 5, chance(0.15) { return allOf(depth: depth) }
        if depth <= 5, chance(0.1) { return enumCases(depth: depth) }
        let keys = [
            "type", "title", "description", "default", "enum", "const", "format", "maxLength", "minLength", "pattern",
            "minimum", "maximum", "exclusiveMinimum", "multipleOf", "x-swift-type", "oneOf", "not", "additionalProperties",
        ]
        return Ordered(pick(keys, count: int(0...6)).map { ($0, keyword($0, depth: depth)) })
    }

    /// Branches that merge (objects, references, `true`), now and then one that conflicts, and
    /// sometimes properties beside the list.
    private mutating func allOf(depth: Int) -> Ordered {
        let branches: [Any] = (0..<int(1...3)).map { _ in
            switch int(0...9) {
            case 0...4: return objectSchema(depth: depth + 1)
            case 5...7: return Ordered([("$ref", reference())])
            case 8: return true
            default: return schema(depth: depth + 1)
            }
        }
        var members: [(String, Any)] = [("allOf", branches)]
        if chance(0.3) { members.append(("properties", Ordered(pick(Self.names, count: int(1...2)).map { ($0, schema(depth: depth + 1)) }))) }
        if chance(0.2) { members.append(("required", pick(Self.names, count: 1))) }
        if chance(0.1) { members.append(("type", chance(0.8) ? "object" : "string")) }
        return Ordered(members)
    }

    /// An enum with associated values as `schema-from-swift` writes it, now and then a branch
    /// that misses the exact shape.
    private mutating func enumCases(depth: Int) -> Ordered {
        let branches: [Any] = pick(Self.names, count: int(1...3)).map { key in
            var branch: [(String, Any)] = [
                ("type", "object"), ("properties", Ordered([(key, chance(0.8) ? payload(depth: depth + 1) : schema(depth: depth + 1))])),
                ("required", [key]),
            ]
            if chance(0.9) { branch.append(("additionalProperties", false)) }
            return Ordered(branch)
        }
        return Ordered([(chance(0.8) ? "oneOf" : "anyOf", branches)])
    }

    /// A case's associated values: an object of fields, or none.
    private mutating func payload(depth: Int) -> Ordered {
        let names = pick(Self.names, count: int(0...3))
        guard !names.isEmpty else { return Ordered([("type", "object")]) }
        return Ordered([("type", "object"), ("properties", Ordered(names.map { ($0, schema(depth: depth + 1)) }))])
    }

    private mutating func keyword(_ key: String, depth: Int) -> Any {
        switch key {
        case "type":
            return (["string", "number", "integer", "boolean", "object", "array", "null", "any", ["string", "null"], ["integer", "null"], ["string", "number"], [String]()] as [Any])[int(0...11)]
        case "title": return ["Gate", "", "Tïtle \"q\"", 5][int(0...3)]
        case "description": return ["Where to board", "", "line\nbreak", NSNull()][int(0...3)]
        case "default": return chance(0.8) ? scalar() : Ordered([("a", [1, "b"] as [Any])])
        case "enum": return chance(0.8) ? (0..<int(0...4)).map { _ in scalar() } : "not an array"
        case "const": return scalar()
        case "format": return ["date-time", "date", "time", "uri", "color", "textarea", "email"][int(0...6)]
        case "x-swift-type": return ["Date", "String"][int(0...1)]
        case "oneOf": return [schema(depth: depth + 1)]
        case "not": return schema(depth: depth + 1)
        case "additionalProperties": return chance(0.5) ? true : Ordered([("type", "string"), ("maxLength", 4)])
        case "properties": return Ordered(pick(Self.names, count: int(0...3)).map { ($0, schema(depth: depth + 1)) })
        case "required": return pick(Self.names, count: 2)
        case "items": return schema(depth: depth + 1)
        case "pattern": return "^[A-Z]{3}$"
        case "maxLength": return [40, 201, 500][int(0...2)]
        default: return [0, 1, 1.5, -3, 200][int(0...4)]
        }
    }

    /// Mostly definitions, also under a second spelling (`%66` is `f`) that the cycle check
    /// takes for another reference, and pointers into other schemas.
    private mutating func reference() -> String {
        let definition = Self.definitions[int(0...4)]
        switch int(0...9) {
        case 0...4: return "#/\(container)/\(definition)"
        case 5: return "#/\(container)/\(definition == "Self" ? "Sel%66" : definition)"
        case 6: return "#/\(container)/\(definition)/properties/\(Self.names[int(0...3)])"
        case 7: return "#/properties/\(Self.names[int(0...3)])"
        case 8: return "#/\(chance(0.5) ? "$defs" : "definitions")/\(definition)"
        default: return ["#", "#/\(container)/Self/items", "#/nowhere", "http://x/y"][int(0...3)]
        }
    }

    private mutating func scalar() -> Any {
        ([("on_time" as Any), "ETA", "goodMorning", "x\"y", 1, 2, 1.5, NSNull(), true])[int(0...8)]
    }

    private func ref(_ definition: String) -> Ordered {
        Ordered([("$ref", "#/\(container)/\(definition)")])
    }

    private mutating func pick(_ values: [String], count: Int) -> [String] {
        var pool = values
        return (0..<min(count, pool.count)).map { _ in pool.remove(at: int(0...pool.count - 1)) }
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func double() -> Double { Double.random(in: 0..<1, using: &random) }
    private mutating func chance(_ probability: Double) -> Bool { double() < probability }

    /// Members in the order given, since the order of keys is the order of the form.
    struct Ordered {
        let members: [(String, Any)]
        init(_ members: [(String, Any)]) { self.members = members }
    }

    private static func text(_ value: Any) -> String {
        switch value {
        case let object as Ordered:
            "{" + object.members.map { JSONWriter.string(.string($0.0)) + ":" + text($0.1) }.joined(separator: ",") + "}"
        case let array as [Any]: "[" + array.map(text).joined(separator: ",") + "]"
        case let string as String: JSONWriter.string(.string(string))
        case let bool as Bool: bool ? "true" : "false"
        case let int as Int: String(int)
        case let double as Double: String(double)
        default: "null"
        }
    }
}

/// A small seeded generator, so a failing seed fails again.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
