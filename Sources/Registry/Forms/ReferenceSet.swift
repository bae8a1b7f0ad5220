/// References in the order first met, with constant-time membership by scalars. A form walks
/// chains of hundreds of references used hundreds of times; a list searched on every step
/// made that quadratic.
struct ReferenceSet {
    private(set) var ordered: [String] = []
    private var members: Set<ExactName> = []

    func contains(_ reference: String) -> Bool { members.contains(ExactName(reference)) }

    mutating func insert(_ reference: String) {
        if members.insert(ExactName(reference)).inserted { ordered.append(reference) }
    }

    mutating func formUnion(_ other: ReferenceSet) {
        for reference in other.ordered { insert(reference) }
    }

    /// Whether any of `other` is here.
    func intersects(_ other: ReferenceSet) -> Bool {
        other.count < count ? other.ordered.contains(where: contains) : ordered.contains(where: other.contains)
    }

    var count: Int { ordered.count }
}

/// The references being expanded above a field, outermost first: a stack that answers "is it
/// on the stack, and where" without a scan.
struct ReferenceStack {
    private(set) var items: [String] = []
    /// Each reference on the stack with its lowest position. A reference appears at most once:
    /// meeting one already on the stack is a cycle, and the walk stops there.
    private var positions: [ExactName: Int] = [:]

    var count: Int { items.count }

    func position(of reference: String) -> Int? { positions[ExactName(reference)] }

    func contains(_ reference: String) -> Bool { positions[ExactName(reference)] != nil }

    mutating func push(_ reference: String) {
        if positions[ExactName(reference)] == nil { positions[ExactName(reference)] = items.count }
        items.append(reference)
    }

    /// Pops every reference above the first `count`.
    mutating func truncate(to count: Int) {
        while items.count > count {
            let reference = items.removeLast()
            if positions[ExactName(reference)] == items.count { positions[ExactName(reference)] = nil }
        }
    }

    subscript(position: Int) -> String { items[position] }

    /// Whether any of `references` is on the stack, scanning the smaller side.
    func intersects(_ references: ReferenceSet) -> Bool {
        count < references.count ? items.contains(where: references.contains) : references.ordered.contains(where: contains)
    }
}
