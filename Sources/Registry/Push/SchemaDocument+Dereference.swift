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
    /// `active` holds the references already followed on the way here. A reference met again is
    /// a cycle; the returned set lets a caller that descends through recursive schemas without
    /// a value to bound the recursion (the size estimator) carry the chain into children.
    func dereference(_ schema: JSONValue, active: Set<ExactName> = []) -> (schema: DereferencedSchema, active: Set<ExactName>) {
        var current = schema
        var active = active
        while true {
            guard case .object(let object) = current else {
                return (.unreadable("the schema is \(current.typeName), not an object"), active)
            }
            guard let reference = object["$ref"] else { return (.object(object), active) }
            guard case .string(let pointer) = reference else {
                return (.unreadable("$ref is \(reference.typeName), not a string"), active)
            }
            guard !active.contains(ExactName(pointer)) else { return (.unreadable("$ref \(pointer) is cyclic"), active) }
            guard let target = resolve(reference: pointer) else {
                return (.unreadable("$ref \(pointer) cannot be resolved"), active)
            }
            active.insert(ExactName(pointer))
            current = target
        }
    }
}
