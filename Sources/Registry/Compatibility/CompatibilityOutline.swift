/// What compatibility needs of a version, and nothing else: each field's name, path, JSON type,
/// nullability, the values an enum lists, and its children. Much smaller than the schema
/// document or the form it comes from, and it never changes for a given text, so it can be
/// kept by content hash and a comparison costs microseconds.
public struct CompatibilityOutline: Sendable, Equatable {
    /// ContentState fields, in byte order of their names (see `OutlineField.sorted`).
    public let content: [OutlineField]
    /// ActivityAttributes fields, in byte order of their names.
    public let attributes: [OutlineField]

    /// The outline of a validated schema, read through its form so `$ref`s, nullable types and
    /// enums mean the same here as in the builder.
    public init(document: SchemaDocument) {
        self.init(form: FormBuilder.form(for: document))
    }

    init(form: FormDescriptor) {
        content = OutlineField.sorted(form.content.fields)
        attributes = OutlineField.sorted(form.attributes.fields)
    }

    /// What the outline holds on the heap, for caches that count their memory.
    public var heapSize: Int {
        OutlineField.heapSize(of: content) + OutlineField.heapSize(of: attributes)
    }
}

/// One field of an outline.
public struct OutlineField: Sendable, Equatable {
    /// What lies below: the fields of a group, or the item of a list.
    public indirect enum Children: Sendable, Equatable {
        case none
        case fields([OutlineField])
        case item(OutlineField)
        /// The cases of a choice (an enum with associated values), in byte order of their keys,
        /// each an object holding the case's fields.
        case cases([OutlineField])

        /// The fields of a group; empty for anything else.
        var fields: [OutlineField] {
            if case .fields(let fields) = self { fields } else { [] }
        }
    }

    public let name: String
    public let path: String
    public let type: FormFieldType
    public let isNullable: Bool
    /// The values an old app's enum knows (the form's `select` options); nil when the field is
    /// not an enum.
    public let allowedValues: [JSONValue]?
    /// Why the form shows the field as a raw editor (a composition, several types, …): what the
    /// comparison then cannot say anything about.
    public let fallbackReason: String?
    public let children: Children

    init(field: FormField) {
        name = field.name
        path = field.path
        type = field.type
        isNullable = field.isNullable
        allowedValues = field.widget == .select ? field.options.map(\.value) : nil
        fallbackReason = field.fallbackReason
        children = switch field.children {
        case .none: .none
        case .fields(let fields): .fields(Self.sorted(fields))
        case .item(let item): .item(OutlineField(field: item))
        case .cases(let cases): .cases(cases.map { OutlineField(case: $0, of: field) }.sorted(by: Self.byName))
        }
    }

    /// A case of `choice`: an object named by the case's key, at the path its fields extend.
    private init(case choice: FormChoiceCase, of field: FormField) {
        name = choice.key
        path = field.path + "." + choice.key
        type = .object
        isNullable = false
        allowedValues = nil
        fallbackReason = nil
        children = .fields(Self.sorted(choice.fields))
    }

    private static func byName(_ a: OutlineField, _ b: OutlineField) -> Bool {
        a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
    }

    /// Outlines of `fields` in byte order of their names (code point order, as JSON compares
    /// names), so two versions' fields are matched by one merge walk without allocating.
    static func sorted(_ fields: [FormField]) -> [OutlineField] {
        fields.map(OutlineField.init(field:)).sorted(by: byName)
    }

    /// The blocks of `fields` and of everything in them.
    static func heapSize(of fields: [OutlineField]) -> Int {
        fields.reduce(HeapSize.of(fields)) { $0 + $1.heapSize }
    }

    /// The field's own blocks (its place in its parent's array is the parent's): its strings,
    /// its enum values, and its children, which are boxed (`Children` is indirect).
    var heapSize: Int {
        var size = HeapSize.of(name) + HeapSize.of(path) + (fallbackReason.map(HeapSize.of) ?? 0)
        if let allowedValues { size += allowedValues.reduce(HeapSize.of(allowedValues)) { $0 + HeapSize.of($1) } }
        return switch children {
        case .none: size
        case .fields(let fields): size + HeapSize.boxOverhead + MemoryLayout<[OutlineField]>.stride + Self.heapSize(of: fields)
        case .item(let item): size + HeapSize.boxOverhead + MemoryLayout<OutlineField>.stride + item.heapSize
        case .cases(let cases): size + HeapSize.boxOverhead + MemoryLayout<[OutlineField]>.stride + Self.heapSize(of: cases)
        }
    }
}
