/// Follows a field schema's local `$ref`s through `SchemaDocument.resolve(reference:)`, for the
/// form and, through the form, for the compatibility check, so both read a schema the same way.
///
/// Keywords written beside a `$ref` win over the referenced schema's own (a `title` or
/// `description` next to `"$ref": "#/$defs/Gate"` describes this use of `Gate`); the
/// referenced schema supplies the rest. Each chain of references is followed once per form:
/// its merged target is kept, so a 300-step chain used 150 times costs 300 steps, not 45,000.
struct SchemaResolver {
    /// How following a chain of references ended.
    enum Resolution: Equatable {
        /// Every reference was followed.
        case complete
        /// A reference was already being expanded, at this position of the active references.
        case cycle(position: Int)
        /// A reference is not a string, not local, or leads nowhere or to a non-object.
        case unresolvable
    }

    /// A chain followed from its first reference as far as it goes on its own.
    private struct Chain {
        /// Every schema of the chain merged, nearer ones winning; its `reference` is where the
        /// chain broke (nil when it ended in a schema without `$ref`).
        let merged: FieldSchema
        /// The chain's references in order, its first included.
        let references: [String]
        /// Whether it ended at a reference that cannot be followed, or one of its own.
        let isBroken: Bool
    }

    /// Why a field whose references could not all be followed is a raw editor; nil when they were.
    static func fallbackReason(_ resolution: Resolution, of schema: FieldSchema, active: ReferenceStack) -> String? {
        switch resolution {
        case .complete: nil
        case .cycle(let position): "$ref \(ClientText.quoted(active[position])) contains itself"
        case .unresolvable: "$ref \(schema.reference.map(JSONWriter.string) ?? "") cannot be followed"
        }
    }

    private let document: SchemaDocument
    /// Keyed by scalars, as JSON pointers match keys.
    private var chains: [ExactName: Chain] = [:]
    /// References looked up so far: each once per form, however often its chain is used.
    private(set) var lookups = 0

    init(document: SchemaDocument) {
        self.document = document
    }

    /// Completes `schema` with every schema its `$ref` chain leads to, pushing onto `active`
    /// (the references being expanded above this field) the reference that ends the chain: a
    /// chain that passes through any reference of one being expanded ends where that one ended,
    /// so the end alone tells a cycle, and a chain of 1,200 steps costs one push, not 1,200.
    /// When the chain breaks, `schema` stays completed as far as it could be followed, and what
    /// was pushed stays on `active` for the caller to remove with the others: what the outcome
    /// rested on is theirs to know.
    mutating func resolve(_ schema: inout FieldSchema, active: inout ReferenceStack) -> Resolution {
        guard let reference = schema.reference else { return .complete }
        guard case .string(let first) = reference else { return .unresolvable }
        let chain = self.chain(from: first)
        guard let end = chain.references.last else {
            schema.complete(with: chain.merged)
            return .unresolvable
        }
        if let position = active.position(of: end) {
            schema.complete(upTo: chain.references.count - 1, of: chain.references, resolver: &self)
            return .cycle(position: position)
        }
        schema.complete(with: chain.merged)
        guard chain.isBroken else {
            active.push(end)
            return .complete
        }
        // A chain that comes back to one of its own references is a cycle of its own, told by
        // the reference met again; any other break is a reference that cannot be followed.
        if case .string(let again)? = chain.merged.reference, chain.references.containsExactly(again) {
            active.push(again)
            return .cycle(position: active.count - 1)
        }
        active.push(end)
        return .unresolvable
    }

    /// The chain starting at `reference`, followed once.
    private mutating func chain(from reference: String) -> Chain {
        if let known = chains[ExactName(reference)] { return known }
        var references: [String] = []
        var seen: Set<ExactName> = []
        var merged: FieldSchema?
        var current = reference
        var isBroken = false
        while true {
            lookups += 1
            guard seen.insert(ExactName(current)).inserted,
                let target = document.resolve(reference: current)?.objectValue.map(FieldSchema.init)
            else {
                isBroken = true
                break
            }
            references.append(current)
            if merged == nil { merged = target } else { merged!.complete(with: target) }
            guard let next = target.reference else { break }
            guard case .string(let text) = next else {
                isBroken = true
                break
            }
            current = text
        }
        let chain = Chain(
            merged: merged ?? FieldSchema(["$ref": .string(reference)]), references: references, isBroken: isBroken)
        chains[ExactName(reference)] = chain
        return chain
    }

    /// The schema of `reference` alone, for completing a chain that stops part way.
    fileprivate func target(of reference: String) -> FieldSchema? {
        document.resolve(reference: reference)?.objectValue.map(FieldSchema.init)
    }
}

extension FieldSchema {
    /// Completes this schema with the first `count` schemas of a chain, one by one, as a walk
    /// that stops at a cycle leaves it.
    fileprivate mutating func complete(upTo count: Int, of references: [String], resolver: inout SchemaResolver) {
        for reference in references.prefix(count) {
            guard let target = resolver.target(of: reference) else { return }
            complete(with: target)
        }
    }
}
