extension FormDescriptor {
    /// The most paths one version indexes for search, and the longest path kept: a schema is
    /// bounded by the body limit, and these bound what one publish writes beside it.
    public static let maxIndexedPaths = 2000
    public static let maxIndexedPathBytes = 2048

    /// Every field's path (`content-state.legs[].gate`), nested fields, list items and the
    /// fields of enum cases included, each once, in form order: what a search by field name or
    /// path looks through. At most `maxIndexedPaths`; longer paths are left out.
    public var fieldPaths: [String] {
        var paths: [String] = []
        var seen: Set<ExactName> = []
        func visit(_ field: FormField) {
            guard paths.count < Self.maxIndexedPaths else { return }
            if field.path.utf8.count <= Self.maxIndexedPathBytes, seen.insert(ExactName(field.path)).inserted {
                paths.append(field.path)
            }
            switch field.children {
            case .none: break
            case .fields(let fields): fields.forEach(visit)
            case .item(let item): visit(item)
            case .cases(let cases): cases.forEach { $0.fields.forEach(visit) }
            }
        }
        content.fields.forEach(visit)
        attributes.fields.forEach(visit)
        return paths
    }
}
