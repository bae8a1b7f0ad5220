/// Codable-safe evolution: what an app already installed, built against an earlier version,
/// would fail on when it receives data shaped by a new version. Apps are not updated when a
/// schema is, so publishing must warn before the pushes start failing on devices.
///
/// Both versions are read through their forms, so `$ref`s, nullable types and enums mean the
/// same here as in the builder. Adding a field is safe (JSONDecoder ignores extra keys), and so
/// are removing an enum value and narrowing `number` to `integer` (the old app's `Double`
/// decodes integers). A field that moves between content and attributes is removed from one
/// section. A field the old form shows as `any` is not checked: nothing is known about how
/// the old app decodes it.
public enum Compatibility {
    /// The problems of apps built against `oldVersion` (schema `old`) with data shaped by
    /// `new`, ordered by path.
    public static func problems(from old: SchemaDocument, oldVersion: Int32, to new: SchemaDocument)
        -> [CompatibilityProblem]
    {
        problems(from: FormBuilder.form(for: old), oldVersion: oldVersion, to: FormBuilder.form(for: new))
    }

    /// The problems of `new` against every earlier version, oldest first, then by path. With
    /// no earlier version, no form is built.
    public static func report(for new: SchemaDocument, against earlier: [(version: Int32, document: SchemaDocument)])
        -> CompatibilityReport
    {
        guard !earlier.isEmpty else { return CompatibilityReport(problems: []) }
        let newForm = FormBuilder.form(for: new)
        let found = earlier.sorted { $0.version < $1.version }.flatMap { old in
            problems(from: FormBuilder.form(for: old.document), oldVersion: old.version, to: newForm)
        }
        return CompatibilityReport(problems: found)
    }

    static func problems(from old: FormDescriptor, oldVersion: Int32, to new: FormDescriptor)
        -> [CompatibilityProblem]
    {
        var comparison = FieldComparison(oldVersion: oldVersion)
        comparison.compare(old: old.content.fields, new: new.content.fields)
        comparison.compare(old: old.attributes.fields, new: new.attributes.fields)
        // Byte order of the path; problems of one field keep the order they were found in.
        return comparison.problems.enumerated().sorted { a, b in
            a.element.path == b.element.path
                ? a.offset < b.offset : a.element.path.utf8.lexicographicallyPrecedes(b.element.path.utf8)
        }.map(\.element)
    }
}
