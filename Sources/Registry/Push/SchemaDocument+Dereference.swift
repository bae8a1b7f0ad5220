/// What a property's schema turns out to be once its `$ref` chain is followed.
enum DereferencedSchema: Equatable {
    case object(JSONObject)
    /// The schema cannot be read (unresolvable or cyclic `$ref`, not an object); the reason
    /// names the reference so a warning can say why a value went unchecked.
    case unreadable(String)
}

extension SchemaDocument {
    /// Follows `$ref` until a schema without one, with draft-7 semantics (keywords beside
    /// `$ref` are ignored), so a value is checked against exactly one schema object.
    ///
    /// `active` holds, for each chain followed on the way here, the reference that ended it
    /// (the one whose target is the schema object). A chain that ends where one on the way here
    /// ended is a cycle; the returned set lets a caller that descends through recursive schemas
    /// without a value to bound the recursion (the size estimator) carry the chains into
    /// children. Chains of `#/$defs/…` references are followed once per document
    /// (`ReferenceChains`), so a 1,200-step chain used 600 times costs 600 lookups.
    func dereference(_ schema: JSONValue, active: Set<ExactName> = []) -> (schema: DereferencedSchema, active: Set<ExactName>) {
        guard case .object(let object) = schema else {
            return (.unreadable("the schema is \(schema.typeName), not an object"), active)
        }
        guard let reference = object["$ref"] else { return (.object(object), active) }
        guard case .string(let pointer) = reference else {
            return (.unreadable("$ref is \(reference.typeName), not a string"), active)
        }
        let chain = referenceChains.chain(from: pointer, in: self)
        guard let end = chain.end else { return (.unreadable(chain.reason), active) }
        guard !active.contains(ExactName(end)) else { return (.unreadable("$ref \(pointer) is cyclic"), active) }
        var active = active
        active.insert(ExactName(end))
        return (chain.schema, active)
    }
}

/// How a chain of references starting at one pointer ends: at a schema object (`end` is the
/// last reference, the one whose target it is) or unreadable, with the reason.
struct ReferenceChain: Sendable {
    let schema: DereferencedSchema
    let end: String?
    var reason: String { if case .unreadable(let reason) = schema { reason } else { "" } }
}

/// The chains of a document's definitions (`#/$defs/…`, `#/definitions/…`), followed once when
/// the document is read; any other pointer is followed on demand.
struct ReferenceChains: Sendable {
    private var chains: [ExactName: ReferenceChain] = [:]

    init(definitions: [ExactName: JSONValue], resolve: (String) -> JSONValue?) {
        for pointer in definitions.keys {
            _ = Self.follow(pointer.text, resolve: resolve, memo: &chains)
        }
    }

    func chain(from pointer: String, in document: SchemaDocument) -> ReferenceChain {
        if let known = chains[ExactName(pointer)] { return known }
        var scratch = chains
        return Self.follow(pointer, resolve: document.resolve(reference:), memo: &scratch)
    }

    /// Follows the chain from `pointer`, remembering the end of every pointer on it.
    private static func follow(_ pointer: String, resolve: (String) -> JSONValue?, memo: inout [ExactName: ReferenceChain])
        -> ReferenceChain
    {
        var walked: [String] = []
        var seen: Set<ExactName> = []
        var current = pointer
        var result: ReferenceChain
        while true {
            if let known = memo[ExactName(current)] {
                result = known
                break
            }
            guard seen.insert(ExactName(current)).inserted else {
                result = ReferenceChain(schema: .unreadable("$ref \(current) is cyclic"), end: nil)
                break
            }
            walked.append(current)
            guard let target = resolve(current) else {
                result = ReferenceChain(schema: .unreadable("$ref \(current) cannot be resolved"), end: nil)
                break
            }
            guard case .object(let object) = target else {
                result = ReferenceChain(schema: .unreadable("the schema is \(target.typeName), not an object"), end: nil)
                break
            }
            guard let next = object["$ref"] else {
                result = ReferenceChain(schema: .object(object), end: current)
                break
            }
            guard case .string(let text) = next else {
                result = ReferenceChain(schema: .unreadable("$ref is \(next.typeName), not a string"), end: nil)
                break
            }
            current = text
        }
        for pointer in walked { memo[ExactName(pointer)] = result }
        return result
    }
}
