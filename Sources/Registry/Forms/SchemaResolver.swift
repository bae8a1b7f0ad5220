/// Follows a field schema's local `$ref`s through `SchemaDocument.resolve(reference:)`, for the
/// form and, through the form, for the compatibility check, so both read a schema the same way.
///
/// Keywords written beside a `$ref` win over the referenced schema's own (a `title` or
/// `description` next to `"$ref": "#/$defs/Gate"` describes this use of `Gate`); the
/// referenced schema supplies the rest. Each reference is looked up and read once per form.
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

    private let document: SchemaDocument
    /// Keyed by scalars, as JSON pointers match keys.
    private var targets: [ExactName: FieldSchema?] = [:]

    init(document: SchemaDocument) {
        self.document = document
    }

    /// Completes `schema` with every schema its `$ref` chain leads to, pushing each reference
    /// followed onto `active`, the references being expanded above this field. When the chain
    /// breaks, `schema` stays completed as far as it could be followed, and the references
    /// followed so far stay on `active` for the caller to remove with the others: what the
    /// outcome rested on is theirs to know.
    mutating func resolve(_ schema: inout FieldSchema, active: inout [String]) -> Resolution {
        while let reference = schema.reference {
            guard case .string(let reference) = reference else { return .unresolvable }
            if let position = active.firstIndex(where: { $0.hasSameBytes(as: reference) }) { return .cycle(position: position) }
            guard let target = target(of: reference) else { return .unresolvable }
            active.append(reference)
            schema.complete(with: target)
        }
        return .complete
    }

    private mutating func target(of reference: String) -> FieldSchema? {
        let key = ExactName(reference)
        if let known = targets[key] { return known }
        let target = document.resolve(reference: reference)?.objectValue.map(FieldSchema.init)
        targets[key] = target
        return target
    }
}
