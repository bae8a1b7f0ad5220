/// Codable-safe evolution: what an app already installed, built against an earlier version,
/// would fail on when it receives data shaped by a new version. Apps are not updated when a
/// schema is, so publishing must warn before the pushes start failing on devices.
///
/// Versions are compared through their outlines (read from their forms), so `$ref`s, nullable
/// types and enums mean the same here as in the builder. Adding a field is safe (JSONDecoder
/// ignores extra keys), and so are removing an enum value and narrowing `number` to `integer`
/// (the old app's `Double` decodes integers). A field that moves between content and
/// attributes is removed from one section. A field the old form shows as `any` is not checked:
/// nothing is known about how the old app decodes it; when the schema said more than the form
/// can show (a composition, several types), the report lists it as not compared.
public enum Compatibility {
    /// The problems of apps built against `oldVersion` (schema `old`) with data shaped by
    /// `new`, ordered by path.
    public static func problems(from old: SchemaDocument, oldVersion: Int32, to new: SchemaDocument)
        -> [CompatibilityProblem]
    {
        problems(from: CompatibilityOutline(document: old), oldVersion: oldVersion, to: CompatibilityOutline(document: new))
    }

    /// The same, from outlines.
    public static func problems(from old: CompatibilityOutline, oldVersion: Int32, to new: CompatibilityOutline)
        -> [CompatibilityProblem]
    {
        comparison(from: old, oldVersion: oldVersion, to: new).problems
    }

    /// The problems, and the old version's fields the comparison could not look into.
    static func comparison(from old: CompatibilityOutline, oldVersion: Int32, to new: CompatibilityOutline)
        -> (problems: [CompatibilityProblem], notCompared: [NotComparedField])
    {
        var comparison = FieldComparison(oldVersion: oldVersion)
        comparison.compare(old: old.content, new: new.content)
        comparison.compare(old: old.attributes, new: new.attributes)
        // Byte order of the path; problems of one field keep the order they were found in.
        let problems = comparison.problems.enumerated().sorted { a, b in
            a.element.path.hasSameBytes(as: b.element.path)
                ? a.offset < b.offset : a.element.path.utf8.lexicographicallyPrecedes(b.element.path.utf8)
        }.map(\.element)
        return (problems, comparison.notCompared)
    }
}
