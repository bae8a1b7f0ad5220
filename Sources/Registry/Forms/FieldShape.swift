/// What one field schema makes of a field wherever it is used: everything a `FormField` holds
/// except the name, the path, the label taken from the name and the required flag, which
/// belong to the place of use (`FieldUse`).
///
/// It is a class so that one description can be shared: a definition that forty properties
/// `$ref` is described once, and the form writer and `FormDescriptor` walk the shared shape
/// with each use's own path.
final class FieldShape {
    let traits: FieldTraits
    let children: Children
    /// What describing the schema depended on besides the schema, so that `FieldDescriber`
    /// reuses the shape only where describing the schema again would give the same shape.
    let dependence: ShapeDependence
    /// The JSON of the keys from `type` to `encoding` but `required`, made once however many
    /// times the shape is used.
    private var json: (typeAndWidget: [UInt8], details: [UInt8])?

    enum Children {
        case none
        /// The nested fields of a group, in the order of the schema text.
        case fields([FieldUse])
        /// The item of a list.
        case item(FieldUse)
    }

    init(_ traits: FieldTraits, children: Children, dependence: ShapeDependence) {
        self.traits = traits
        self.children = children
        self.dependence = dependence
    }

    /// Appends the keys that follow `label` in forms.md's fixed order: `type`, `widget`,
    /// `required` (the use's), then only those optional keys that say something:
    /// `description`, `default`, `options`, `nullable`, `constraints`, `encoding`.
    func writeKeys(isRequired: Bool, into out: inout [UInt8]) {
        let json = json ?? (traits.typeAndWidgetJSON, traits.detailsJSON)
        self.json = json
        out.append(contentsOf: json.typeAndWidget)
        out.append(literal: isRequired ? #","required":true"# : #","required":false"#)
        out.append(contentsOf: json.details)
    }
}

/// One use of a shape: a member of a `properties` object, or the item of a list.
struct FieldUse {
    let name: String
    /// The shape's title, else the name made readable.
    let label: String
    let isRequired: Bool
    let shape: FieldShape
}

extension FieldTraits {
    fileprivate var typeAndWidgetJSON: [UInt8] {
        var out: [UInt8] = []
        out.append(literal: #","type":"#)
        JSONWriter.writeString(type.rawValue, into: &out)
        out.append(literal: #","widget":"#)
        JSONWriter.writeString(widget.rawValue, into: &out)
        return out
    }

    fileprivate var detailsJSON: [UInt8] {
        var out: [UInt8] = []
        if let description {
            out.append(literal: #","description":"#)
            JSONWriter.writeString(description, into: &out)
        }
        if let defaultValue {
            out.append(literal: #","default":"#)
            JSONWriter.write(defaultValue, into: &out)
        }
        if !options.isEmpty {
            out.append(literal: #","options":["#)
            for (i, option) in options.enumerated() {
                out.append(literal: i == 0 ? #"{"value":"# : #",{"value":"#)
                JSONWriter.write(option.value, into: &out)
                out.append(literal: #","label":"#)
                JSONWriter.writeString(option.label, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if isNullable { out.append(literal: #","nullable":true"#) }
        if !constraints.isEmpty {
            out.append(literal: #","constraints":"#)
            JSONWriter.write(.object(constraints), into: &out)
        }
        if let encoding {
            out.append(literal: #","encoding":"#)
            JSONWriter.writeString(encoding.rawValue, into: &out)
        }
        return out
    }
}
