/// Follows a field schema's local `$ref`s through `SchemaDocument.resolve(reference:)`, for the
/// form and, through the form, for the compatibility check, so both read a schema the same way.
///
/// Keywords written beside a `$ref` win over the referenced schema's own (a `title` or
/// `description` next to `"$ref": "#/$defs/Gate"` describes this use of `Gate`); the
/// referenced schema supplies the rest. Each reference is looked up and read once per form.
struct SchemaResolver {
    private let document: SchemaDocument
    private var targets: [String: FieldSchema?] = [:]

    init(document: SchemaDocument) {
        self.document = document
    }

    /// Completes `schema` with every schema its `$ref` chain leads to, pushing each reference
    /// followed onto `active`, the references being expanded above this field. Returns false,
    /// leaving `active` as it was and `schema` completed as far as the chain could be followed,
    /// when a reference is not a string, not local, leads nowhere or to a non-object, or is
    /// already in `active` (expanding it again would never end).
    mutating func resolve(_ schema: inout FieldSchema, active: inout [String]) -> Bool {
        let outerCount = active.count
        while let reference = schema.reference {
            guard case .string(let reference) = reference, !active.contains(reference),
                let target = target(of: reference)
            else {
                active.removeSubrange(outerCount...)
                return false
            }
            active.append(reference)
            schema.complete(with: target)
        }
        return true
    }

    private mutating func target(of reference: String) -> FieldSchema? {
        if let known = targets[reference] { return known }
        let target = document.resolve(reference: reference)?.objectValue.map(FieldSchema.init)
        targets[reference] = target
        return target
    }
}
