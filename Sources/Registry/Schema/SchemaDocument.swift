import Foundation

/// A `jsonSchema` that passed every shape rule (`SchemaRules`), split into the two parts a Live
/// Activity has: ContentState fields (root `properties`) and ActivityAttributes fields
/// (`attributes.properties`).
public struct SchemaDocument: Sendable, Equatable {
    /// The whole schema, keys in text order.
    public let root: JSONObject
    /// Root `properties` (empty when absent).
    public let contentProperties: JSONObject
    /// `attributes.properties`, or nil when the schema has no `attributes` section.
    public let attributesProperties: JSONObject?
    /// `attributes.required`, in the author's order.
    public let attributesRequired: [String]
    /// The schema compiled once for every value check, or why it cannot be: publishing refuses
    /// such a schema, but a version stored before a rule existed must still be served.
    public let compiled: Result<CompiledSchema, SchemaCompileError>

    /// `#/$defs/…` and `#/definitions/…` targets by reference text, so resolving the usual
    /// references is one lookup instead of a scan of every definition. Keyed by scalars, as
    /// JSON pointers match keys.
    private let definitions: [ExactName: JSONValue]
    /// Where the definitions' `$ref` chains end, followed once.
    let referenceChains: ReferenceChains

    public init(root: JSONObject, contentProperties: JSONObject, attributesProperties: JSONObject?, attributesRequired: [String]) {
        self.root = root
        self.contentProperties = contentProperties
        self.attributesProperties = attributesProperties
        self.attributesRequired = attributesRequired
        compiled = Result { () throws(SchemaCompileError) in
            try CompiledSchema.compile(.object(root), embeddedSchemas: attributesProperties == nil ? [] : [Self.attributesKeyword])
        }
        var definitions: [ExactName: JSONValue] = [:]
        for container in ["definitions", "$defs"] {
            for member in root[container]?.objectValue?.members ?? [] where !member.key.needsPointerEscaping {
                let reference = ExactName("#/\(container)/\(member.key)")
                if definitions[reference] == nil { definitions[reference] = member.value }
            }
        }
        self.definitions = definitions
        referenceChains = ReferenceChains(definitions: definitions) { [root] pointer in
            Self.resolve(reference: pointer, root: root, definitions: definitions)
        }
    }

    /// The registry's own root keyword: the ActivityAttributes schema beside the content state's.
    public static let attributesKeyword = "attributes"

    /// The registry's root keyword that asserts `format` (JSON Schema makes it an annotation).
    public static let assertFormatsKeyword = "x-assert-formats"

    /// Whether the schema opted into asserting `format`.
    public var assertsFormats: Bool { root[Self.assertFormatsKeyword] == .bool(true) }

    /// What the document holds on the heap, for caches that count their memory: the parsed
    /// text (the parts split out of it share its blocks), the definitions index and the
    /// compiled schema.
    public var heapSize: Int {
        let compiledSize = (try? compiled.get().heapSize) ?? 0
        return HeapSize.of(root) + HeapSize.of(attributesRequired) + compiledSize
            + definitions.keys.reduce(HeapSize.of(definitions)) { $0 + HeapSize.of($1.text) }
    }

    public static func == (lhs: SchemaDocument, rhs: SchemaDocument) -> Bool {
        lhs.root == rhs.root
    }

    /// Resolves a local reference (`#/$defs/Name`, `#/definitions/Name`, or any JSON pointer
    /// into this document). Returns nil for remote or unresolvable references; cycles are the
    /// caller's to detect. The pointer is read scalar by scalar (RFC 6901): Swift's characters
    /// would join a `/` with a combining mark after it into one.
    public func resolve(reference: String) -> JSONValue? {
        Self.resolve(reference: reference, root: root, definitions: definitions)
    }

    private static func resolve(reference: String, root: JSONObject, definitions: [ExactName: JSONValue]) -> JSONValue? {
        if let target = definitions[ExactName(reference)] { return target }
        guard reference.unicodeScalars.first == "#" else { return nil }
        let pointer = String(reference.unicodeScalars.dropFirst()).removingPointerPercentEncoding
        if pointer.isEmpty { return .object(root) }
        guard pointer.unicodeScalars.first == "/" else { return nil }
        var current = JSONValue.object(root)
        for rawToken in pointer.unicodeScalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = String(Substring(rawToken)).unescapingPointerToken
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let i = Int(token), array.indices.contains(i) else { return nil }
                current = array[i]
            default:
                return nil
            }
        }
        return current
    }
}

extension String {
    /// Whether the key holds a `/` or `~`, which a pointer to it must escape.
    fileprivate var needsPointerEscaping: Bool {
        utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "~") }
    }

    /// JSON pointers inside URI fragments may be percent-encoded (`#/$defs/My%20Type`,
    /// RFC 6901 §6); a fragment whose encoding is invalid is read as written.
    fileprivate var removingPointerPercentEncoding: String {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        return removingPercentEncoding ?? self
    }

    /// A JSON pointer token with `~1` read as `/` and `~0` as `~` (RFC 6901 §4); any other `~`
    /// stays as written.
    var unescapingPointerToken: String {
        guard utf8.contains(UInt8(ascii: "~")) else { return self }
        var unescaped = String.UnicodeScalarView()
        var scalars = unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "~" else {
                unescaped.append(scalar)
                continue
            }
            switch scalars.next() {
            case "1"?: unescaped.append("/")
            case "0"?: unescaped.append("~")
            case let other?: unescaped.append(contentsOf: ["~", other])
            case nil: unescaped.append("~")
            }
        }
        return String(unescaped)
    }
}
