/// Walks an old version's outline beside the new version's, recording what an app built
/// against the old one cannot decode.
///
/// A removed field is always reported. When the old version made it nullable the message says
/// that apps which declared it optional still decode updates: the schema cannot prove how the
/// Swift property was declared, so the removal still counts against compatibility.
struct FieldComparison {
    let oldVersion: Int32
    private(set) var problems: [CompatibilityProblem] = []
    /// Fields of the old version the comparison could not look into, with the reason.
    private(set) var notCompared: [NotComparedField] = []

    init(oldVersion: Int32) {
        self.oldVersion = oldVersion
    }

    /// Matches fields by name, as JSON does: by code points, so two names that differ only in
    /// Unicode normalisation are two fields. Both lists are in byte order of their names
    /// (`OutlineField.sorted`), so one merge walk pairs them; reordering keys changes nothing.
    mutating func compare(old: [OutlineField], new: [OutlineField]) {
        var next = 0
        for field in old {
            while next < new.count, new[next].name.utf8.lexicographicallyPrecedes(field.name.utf8) { next += 1 }
            if next < new.count, new[next].name.utf8.elementsEqual(field.name.utf8) {
                compare(old: field, new: new[next])
            } else {
                report(.removed, field, removalMessage(field))
            }
        }
    }

    private mutating func compare(old: OutlineField, new: OutlineField) {
        guard old.type != .any else {
            if let reason = old.fallbackReason { notCompared.append(NotComparedField(path: old.path, reason: reason)) }
            return
        }
        guard old.type == new.type || (old.type == .number && new.type == .integer) else {
            report(
                .typeChanged, old,
                "\(old.path) changed type from \(old.type.rawValue) to \(new.type.rawValue) in the new version; apps built against version \(oldVersion) cannot decode its values"
            )
            return
        }
        if new.isNullable && !old.isNullable {
            report(
                .nullable, old,
                "\(old.path) may be null in the new version; apps built against version \(oldVersion) expect a \(old.type.rawValue) there and cannot decode null"
            )
        }
        if let known = old.allowedValues {
            compareValues(old: old, known: known, new: new)
        }
        switch old.children {
        case .none:
            break
        case .fields(let fields):
            if case .fields(let newFields) = new.children { compare(old: fields, new: newFields) } else { compare(old: fields, new: []) }
        case .item(let item):
            if case .item(let newItem) = new.children { compare(old: item, new: newItem) }
        case .cases(let cases):
            compareCases(old: old, known: cases, new: new)
        }
    }

    /// An old app decodes a choice into an enum with associated values, which fails on a case it
    /// does not know, or on a value that is no longer one case key; the fields of a case both
    /// versions know are compared as fields. A case the new version drops is never sent, so an
    /// old app loses nothing.
    private mutating func compareCases(old: OutlineField, known: [OutlineField], new: OutlineField) {
        guard case .cases(let offered) = new.children else {
            report(
                .typeChanged, old,
                "\(old.path) is no longer a choice among enum cases in the new version; apps built against version \(oldVersion) decode it as an enum and cannot decode other values"
            )
            return
        }
        var added: [String] = []
        for choice in offered {
            if let match = known.first(where: { $0.name.hasSameBytes(as: choice.name) }) {
                compare(old: match.children.fields, new: choice.children.fields)
            } else {
                added.append(choice.name)
            }
        }
        guard !added.isEmpty else { return }
        let listed = added.map(ClientText.quoted).joined(separator: ", ")
        report(
            .enumValueAdded, old,
            "\(old.path) allows case \(listed) in the new version, which version \(oldVersion) does not know; apps built against version \(oldVersion) cannot decode \(added.count == 1 ? "that case" : "those cases")"
        )
    }

    /// An old app decodes a `select` into an enum, which fails on any raw value it does not know.
    /// `null` is left to the nullable check.
    private mutating func compareValues(old: OutlineField, known: [JSONValue], new: OutlineField) {
        guard let offered = new.allowedValues else {
            report(
                .enumValueAdded, old,
                "\(old.path) no longer lists its allowed values in the new version; apps built against version \(oldVersion) decode it as an enum and cannot decode values it does not list"
            )
            return
        }
        let identities = Set(known.map(Self.identity(of:)))
        let added = offered.filter { !$0.isNull && !identities.contains(Self.identity(of: $0)) }
        guard !added.isEmpty else { return }
        let listed = added.map(JSONWriter.string).joined(separator: ", ")
        report(
            .enumValueAdded, old,
            "\(old.path) allows \(listed) in the new version, which version \(oldVersion) does not list; apps built against version \(oldVersion) cannot decode \(added.count == 1 ? "that value" : "those values")"
        )
    }

    private func removalMessage(_ field: OutlineField) -> String {
        let data = field.path.hasPrefix("attributes") ? "activity attributes" : "updates"
        guard field.isNullable else {
            return "\(field.path) was removed in the new version; apps built against version \(oldVersion) cannot decode \(data) without it"
        }
        return "\(field.path) was removed in the new version; it was nullable in version \(oldVersion), so apps built against that version decode \(data) without it only if they declared it optional"
    }

    private mutating func report(_ kind: CompatibilityProblem.Kind, _ field: OutlineField, _ message: String) {
        problems.append(CompatibilityProblem(version: oldVersion, path: field.path, kind: kind, message: message))
    }

    /// Numbers compare by value (`1` and `1.0` are one enum value to a decoder), everything
    /// else by its JSON text, as code points.
    private static func identity(of value: JSONValue) -> [Unicode.Scalar] {
        if let number = value.doubleValue { Array("\(number)".unicodeScalars) } else { Array(JSONWriter.string(value).unicodeScalars) }
    }
}
