/// What one field schema makes of a field wherever it is used: everything a `FormField` holds
/// except the name, the path, the label taken from the name and the required flag, which
/// belong to the place of use (`FieldUse`).
///
/// It is a class so that one description can be shared: the fields of a definition that forty
/// properties `$ref` are described once, and the form writer and `FormDescriptor` walk the
/// shared shapes with each use's own path.
final class FieldShape {
    let traits: FieldTraits
    let children: Children
    /// What `FormWriter` measured and wrote of this shape, kept for its further uses.
    var written: WrittenShape?

    enum Children {
        case none
        /// The nested fields of a group, in the order of the schema text.
        case fields([FieldUse])
        /// The item of a list.
        case item(FieldUse)
        /// The cases of a choice: each named by its key, its shape a group of the case's fields
        /// or an object without any.
        case cases([FieldUse])
    }

    init(_ traits: FieldTraits, children: Children) {
        self.traits = traits
        self.children = children
    }

    /// The nested fields of a group; empty for anything else, such as a case without fields.
    var fields: [FieldUse] {
        if case .fields(let uses) = children { uses } else { [] }
    }
}

/// Where `FormWriter` keeps the part of a field's JSON that its shape decides, and the size of
/// all of it.
struct WrittenShape {
    /// The keys from `type` to `encoding` but `required`, in the writer's buffer of keys;
    /// `required` goes at `requiredOffset`.
    let keys: Range<Int>
    let requiredOffset: Int
    /// The bytes the shape adds to a field's JSON, nested fields included, besides one copy of
    /// the field's path per field below it (`fieldsBelow`).
    let bytes: Int
    let fieldsBelow: Int
}

/// One use of a shape: a member of a `properties` object, or the item of a list.
struct FieldUse {
    let name: String
    /// The shape's title, else the name made readable.
    let label: String
    let isRequired: Bool
    /// A content field the root `required` lists: a journey may leave it, but the app's
    /// ContentState cannot decode an update without it.
    var isNeededByApp = false
    let shape: FieldShape
}

extension FieldShape {
    /// The keys that follow `label` in the form's fixed key order, `required` left out: `type`,
    /// `widget`, then only those optional keys that say something: `description`, `default`,
    /// `options`, `nullable`, `constraints`, `encoding`, `fallback_reason`. Returns where
    /// `required` (and `needed_by_app`) go. It reads
    /// the traits in place: a copy of them would retain every member.
    func writeKeys(into out: inout [UInt8]) -> Int {
        out.append(literal: #","type":"#)
        JSONWriter.writeString(traits.type.rawValue, into: &out)
        out.append(literal: #","widget":"#)
        JSONWriter.writeString(traits.widget.rawValue, into: &out)
        let requiredOffset = out.count
        if let description = traits.description {
            out.append(literal: #","description":"#)
            JSONWriter.writeString(description, into: &out)
        }
        if let defaultValue = traits.defaultValue {
            out.append(literal: #","default":"#)
            JSONWriter.write(defaultValue, into: &out)
        }
        if !traits.options.isEmpty {
            out.append(literal: #","options":["#)
            for (i, option) in traits.options.enumerated() {
                out.append(literal: i == 0 ? #"{"value":"# : #",{"value":"#)
                JSONWriter.write(option.value, into: &out)
                out.append(literal: #","label":"#)
                JSONWriter.writeString(option.label, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if traits.isNullable { out.append(literal: #","nullable":true"#) }
        if !traits.constraints.isEmpty {
            out.append(literal: #","constraints":"#)
            JSONWriter.write(.object(traits.constraints), into: &out)
        }
        if let encoding = traits.encoding {
            out.append(literal: #","encoding":"#)
            JSONWriter.writeString(encoding.rawValue, into: &out)
        }
        if let reason = traits.fallbackReason {
            out.append(literal: #","fallback_reason":"#)
            JSONWriter.writeString(reason, into: &out)
        }
        return requiredOffset
    }
}
