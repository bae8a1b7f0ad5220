/// What describing a schema depended on besides the schema itself. A shape built in one place
/// is reused in another only if describing its schema there would take the same decisions: no
/// limit may cut it short there, and no reference it followed may already be expanding there.
struct ShapeDependence {
    /// Levels of nesting below the field; reuse needs `depth + height <= maxDepth`.
    var height = 0
    /// Fields below the field. Reusing the shape adds them to the form's count, and every
    /// reference check inside happened within that many fields of the shape's own.
    var fieldCount = 0
    /// The references followed inside, including the field's own. Under a use that is already
    /// expanding one of them, describing the schema again would stop at it.
    var references: [String] = []
    /// The position in the stack of active references of the outermost reference that stopped
    /// a cycle inside. At or beyond the position the stack had when the shape began, the cycle
    /// is the shape's own and recurs wherever it is used; before it, the cycle depends on
    /// where the shape was reached.
    var outermostCyclePosition = Int.max
    /// A limit (the depth, the field cap) cut the description short.
    var isCut = false

    /// Adds what a nested field's shape depended on, one level down.
    mutating func include(_ nested: ShapeDependence) {
        height = max(height, nested.height + 1)
        fieldCount += nested.fieldCount + 1
        for reference in nested.references where !references.contains(reference) {
            references.append(reference)
        }
        outermostCyclePosition = min(outermostCyclePosition, nested.outermostCyclePosition)
        isCut = isCut || nested.isCut
    }

    /// Adds what a group of nested fields depended on, as `include` added each of them.
    mutating func merge(_ group: ShapeDependence) {
        height = max(height, group.height)
        fieldCount += group.fieldCount
        for reference in group.references where !references.contains(reference) {
            references.append(reference)
        }
        outermostCyclePosition = min(outermostCyclePosition, group.outermostCyclePosition)
        isCut = isCut || group.isCut
    }

    /// Whether a shape begun with `outerReferences` references active may be reused: nothing
    /// cut it short and every cycle it stopped lies within it.
    func isReusable(outerReferences: Int) -> Bool {
        !isCut && outermostCyclePosition >= outerReferences
    }
}
