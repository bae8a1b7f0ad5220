/// A `jsonSchema` that passed every shape rule of the spec, split into the two parts a Live
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

    /// `#/$defs/…` and `#/definitions/…` targets by reference text, so resolving the usual
    /// references is one lookup instead of a scan of every definition.
    private let definitions: [String: JSONValue]

    public init(root: JSONObject, contentProperties: JSONObject, attributesProperties: JSONObject?, attributesRequired: [String]) {
        self.root = root
        self.contentProperties = contentProperties
        self.attributesProperties = attributesProperties
        self.attributesRequired = attributesRequired
        var definitions: [String: JSONValue] = [:]
        for container in ["definitions", "$defs"] {
            for member in root[container]?.objectValue?.members ?? [] where !member.key.contains("/") && !member.key.contains("~") {
                let reference = "#/\(container)/\(member.key)"
                if definitions[reference] == nil { definitions[reference] = member.value }
            }
        }
        self.definitions = definitions
    }

    public static func == (lhs: SchemaDocument, rhs: SchemaDocument) -> Bool {
        lhs.root == rhs.root
    }

    /// Resolves a local reference (`#/$defs/Name`, `#/definitions/Name`, or any JSON pointer
    /// into this document). Returns nil for remote or unresolvable references; cycles are the
    /// caller's to detect.
    public func resolve(reference: String) -> JSONValue? {
        if let target = definitions[reference] { return target }
        guard reference.hasPrefix("#") else { return nil }
        let pointer = String(reference.dropFirst()).removingPointerPercentEncoding
        if pointer.isEmpty { return .object(root) }
        guard pointer.hasPrefix("/") else { return nil }
        var current = JSONValue.object(root)
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = rawToken.replacingAll("~1", with: "/").replacingAll("~0", with: "~")
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

extension StringProtocol {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard contains(target) else { return String(self) }
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[rest.startIndex..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    fileprivate func range(of target: String) -> Range<Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) {
                return index..<self.index(index, offsetBy: target.count)
            }
            index = self.index(after: index)
        }
        return nil
    }
}

extension String {
    /// JSON pointers inside URI fragments may be percent-encoded (`#/$defs/My%20Type`).
    fileprivate var removingPointerPercentEncoding: String {
        guard contains("%") else { return self }
        return PercentDecoding.decode(self) ?? self
    }
}
