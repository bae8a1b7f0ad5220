/// What describing schemas depended on besides the schemas themselves. Fields described in one
/// place are reused in another only if describing them there would take the same decisions: no
/// limit may cut them short there, and no reference they followed may already be expanding
/// there.
struct ShapeDependence {
    /// Levels of nesting below the field; reuse needs `depth + height <= maxDepth`.
    var height = 0
    /// Fields below the field. Reusing them adds them to the form's count, and every reference
    /// check inside happened within that many fields of the field's own.
    var fieldCount = 0
    /// The references followed inside, including the field's own. Under a use that is already
    /// expanding one of them, describing the schema again would stop at it.
    var references = ReferenceSet()
    /// The position in the stack of active references of the outermost reference that stopped
    /// a cycle inside. At or beyond the position the stack had where the description began,
    /// the cycle is its own and recurs wherever it is used; before it, the cycle depends on
    /// where it was reached.
    var outermostCyclePosition = Int.max
    /// A limit (the depth, the field cap) cut the description short.
    var isCut = false

    /// Adds what a nested field's shape depended on, one level down.
    mutating func include(_ nested: ShapeDependence) {
        height = max(height, nested.height + 1)
        fieldCount += nested.fieldCount + 1
        references.formUnion(nested.references)
        outermostCyclePosition = min(outermostCyclePosition, nested.outermostCyclePosition)
        isCut = isCut || nested.isCut
    }

    /// Adds what a group of nested fields depended on, as `include` added each of them.
    mutating func merge(_ group: ShapeDependence) {
        height = max(height, group.height)
        fieldCount += group.fieldCount
        references.formUnion(group.references)
        outermostCyclePosition = min(outermostCyclePosition, group.outermostCyclePosition)
        isCut = isCut || group.isCut
    }

    /// Whether what was described from a point with `outerReferences` references active may be
    /// reused: nothing cut it short and every cycle it stopped lies within it.
    func isReusable(outerReferences: Int) -> Bool {
        !isCut && outermostCyclePosition >= outerReferences
    }
}
