/// The field-level difference between two versions of a type: fields added and removed, and
/// for fields in both, each property that changed (type, required, nullable, enum values,
/// constraints, format, date encoding). Both versions are read through their forms, so paths,
/// `$ref`s and nullable types mean what they mean in the builder.
///
/// Whether a change breaks installed apps is not decided here: `Compatibility` decides, and
/// each change carries the problems it reports at the same path for the matching reason, so
/// the diff and the publish check can never disagree.
public struct SchemaDiff: Sendable, Equatable {
    /// In the order of the earlier version's fields, each followed by what is nested in it;
    /// added fields after the fields of their level.
    public let changes: [FieldChange]
    /// The full compatibility verdict of the newer version against the earlier one (under the
    /// built-in policy: the diff of two versions reads no policy).
    public let compatibility: CompatibilityReport

    /// Apps built against `oldVersion` (schema `old`) receiving data shaped by `new`.
    public init(from old: SchemaDocument, oldVersion: Int32, to new: SchemaDocument) {
        let oldForm = FormBuilder.form(for: old)
        let newForm = FormBuilder.form(for: new)
        let problems = Compatibility.problems(
            from: CompatibilityOutline(form: oldForm), oldVersion: oldVersion, to: CompatibilityOutline(form: newForm))
        var walk = Walk()
        walk.compare(old: oldForm.content.fields, new: newForm.content.fields)
        walk.compare(old: oldForm.attributes.fields, new: newForm.attributes.fields)
        changes = walk.changes.map { change in
            let matching = problems.filter { problem in
                Array(problem.path.utf8) == Array(change.path.utf8) && Self.kind(causedBy: problem.kind) == change.kind
            }
            return FieldChange(
                path: change.path, kind: change.kind, property: change.property, old: change.old, new: change.new,
                problems: matching)
        }
        // A pair of versions, not a publish: no policy was read, nothing was inherited.
        compatibility = CompatibilityReport(
            policy: .builtIn, comparedVersions: [oldVersion], limitReached: false, problems: problems, inheritedProblems: [])
    }

    /// The change a compatibility problem is about.
    static func kind(causedBy problem: CompatibilityProblem.Kind) -> FieldChange.Kind {
        switch problem {
        case .removed: .removed
        case .typeChanged: .type
        case .nullable: .nullable
        case .enumValueAdded: .enumValues
        }
    }

    /// Collects changes without judging them.
    private struct Walk {
        var changes: [FieldChange] = []

        /// Fields are matched by the bytes of their names, as JSON keys are.
        mutating func compare(old: [FormField], new: [FormField]) {
            var newByName: [[UInt8]: FormField] = [:]
            for field in new where newByName[Array(field.name.utf8)] == nil { newByName[Array(field.name.utf8)] = field }
            let oldNames = Set(old.map { Array($0.name.utf8) })
            for field in old {
                if let newField = newByName[Array(field.name.utf8)] {
                    compare(old: field, new: newField)
                } else {
                    changes.append(FieldChange(path: field.path, kind: .removed, old: .string(field.type.rawValue), new: nil))
                }
            }
            for field in new where !oldNames.contains(Array(field.name.utf8)) {
                changes.append(FieldChange(path: field.path, kind: .added, old: nil, new: .string(field.type.rawValue)))
            }
        }

        private mutating func compare(old: FormField, new: FormField) {
            let path = old.path
            if old.type != new.type {
                // Nested fields of a different type are not comparable: the type change says it all.
                changes.append(FieldChange(path: path, kind: .type, old: .string(old.type.rawValue), new: .string(new.type.rawValue)))
                return
            }
            if old.isRequired != new.isRequired {
                changes.append(FieldChange(path: path, kind: .required, old: .bool(old.isRequired), new: .bool(new.isRequired)))
            }
            if old.isNullable != new.isNullable {
                changes.append(FieldChange(path: path, kind: .nullable, old: .bool(old.isNullable), new: .bool(new.isNullable)))
            }
            // A choice's cases are its values: the case keys.
            let oldValues = old.options.map(\.value) + old.children.cases.map { .string($0.key) }
            let newValues = new.options.map(\.value) + new.children.cases.map { .string($0.key) }
            if oldValues.map(JSONWriter.string) != newValues.map(JSONWriter.string) {
                changes.append(FieldChange(path: path, kind: .enumValues, old: .array(oldValues), new: .array(newValues)))
            }
            compareConstraints(path, old.constraints, new.constraints)
            if old.encoding != new.encoding {
                changes.append(
                    FieldChange(
                        path: path, kind: .encoding, old: old.encoding.map { .string($0.rawValue) } ?? .null,
                        new: new.encoding.map { .string($0.rawValue) } ?? .null))
            }
            // As the compatibility check walks: a group that lost its field list lost its fields.
            switch old.children {
            case .none:
                break
            case .fields(let oldFields):
                compare(old: oldFields, new: new.children.fields)
            case .item(let oldItem):
                if let newItem = new.children.item { compare(old: oldItem, new: newItem) }
            case .cases(let oldCases):
                for choice in oldCases {
                    if let newCase = new.children.cases.first(where: { $0.key.hasSameBytes(as: choice.key) }) {
                        compare(old: choice.fields, new: newCase.fields)
                    }
                }
            }
        }

        /// Each limit in the form's order; `format` is reported as a change of its own.
        private mutating func compareConstraints(_ path: String, _ old: JSONObject, _ new: JSONObject) {
            var keys = old.keys
            for key in new.keys where !keys.contains(where: { Array($0.utf8) == Array(key.utf8) }) { keys.append(key) }
            for key in keys {
                let before = old.members.first { Array($0.key.utf8) == Array(key.utf8) }?.value
                let after = new.members.first { Array($0.key.utf8) == Array(key.utf8) }?.value
                guard before.map(JSONWriter.string) != after.map(JSONWriter.string) else { continue }
                if key == "format" {
                    changes.append(FieldChange(path: path, kind: .format, old: before ?? .null, new: after ?? .null))
                } else {
                    changes.append(FieldChange(path: path, kind: .constraint, property: key, old: before ?? .null, new: after ?? .null))
                }
            }
        }
    }
}
