/// Walks an old version's fields beside the new version's, recording what an app built against
/// the old one cannot decode.
///
/// A removed field is always reported. When the old version made it nullable the message says
/// that apps which declared it optional still decode updates: the schema cannot prove how the
/// Swift property was declared, so the removal still counts against compatibility.
struct FieldComparison {
    let oldVersion: Int32
    private(set) var problems: [CompatibilityProblem] = []

    init(oldVersion: Int32) {
        self.oldVersion = oldVersion
    }

    /// Matches fields by name, so reordering keys changes nothing. Names match by Unicode
    /// scalars, as JSON keys do: `"é"` and `"e\u{301}"` are two fields.
    mutating func compare(old: [FormField], new: [FormField]) {
        let newFields = Dictionary(new.map { (ExactName($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        for field in old {
            if let newField = newFields[ExactName(field.name)] {
                compare(old: field, new: newField)
            } else {
                report(.removed, field, removalMessage(field))
            }
        }
    }

    private mutating func compare(old: FormField, new: FormField) {
        guard old.type != .any else { return }
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
        if old.widget == .select {
            compareValues(old: old, new: new)
        }
        switch old.children {
        case .none:
            break
        case .fields(let fields):
            compare(old: fields, new: new.children.fields)
        case .item(let item):
            if let newItem = new.children.item { compare(old: item, new: newItem) }
        }
    }

    /// An old app decodes a `select` into an enum, which fails on any raw value it does not know.
    /// `null` is left to the nullable check.
    private mutating func compareValues(old: FormField, new: FormField) {
        guard new.widget == .select else {
            report(
                .enumValueAdded, old,
                "\(old.path) no longer lists its allowed values in the new version; apps built against version \(oldVersion) decode it as an enum and cannot decode values it does not list"
            )
            return
        }
        let known = Set(old.options.map { Self.identity(of: $0.value) })
        let added = new.options.map(\.value).filter { !$0.isNull && !known.contains(Self.identity(of: $0)) }
        guard !added.isEmpty else { return }
        let listed = added.map(JSONWriter.string).joined(separator: ", ")
        report(
            .enumValueAdded, old,
            "\(old.path) allows \(listed) in the new version, which version \(oldVersion) does not list; apps built against version \(oldVersion) cannot decode \(added.count == 1 ? "that value" : "those values")"
        )
    }

    private func removalMessage(_ field: FormField) -> String {
        let data = field.path.hasPrefix("attributes") ? "activity attributes" : "updates"
        guard field.isNullable else {
            return "\(field.path) was removed in the new version; apps built against version \(oldVersion) cannot decode \(data) without it"
        }
        return "\(field.path) was removed in the new version; it was nullable in version \(oldVersion), so apps built against that version decode \(data) without it only if they declared it optional"
    }

    private mutating func report(_ kind: CompatibilityProblem.Kind, _ field: FormField, _ message: String) {
        problems.append(CompatibilityProblem(version: oldVersion, path: field.path, kind: kind, message: message))
    }

    /// Numbers compare by value (`1` and `1.0` are one enum value to a decoder), everything
    /// else by its JSON text.
    private static func identity(of value: JSONValue) -> String {
        if let number = value.doubleValue { "\(number)" } else { JSONWriter.string(value) }
    }
}
