extension FormDescriptor {
    /// The outline's fields with their paths spelled out, one `FormField` per use of a shape.
    init(_ outline: FormOutline) {
        content = FormSection(mode: .fields, fields: outline.content.fields(under: FormOutline.contentPath))
        guard let attributes = outline.attributes else {
            self.attributes = FormSection(mode: .free, fields: [])
            return
        }
        self.attributes = FormSection(mode: .fields, fields: attributes.fields(under: FormOutline.attributesPath))
    }
}

extension [FieldUse] {
    /// Paths are joined verbatim (`parent.child`), even when a name itself holds a dot.
    fileprivate func fields(under path: String) -> [FormField] {
        map { FormField($0, path: path + "." + $0.name) }
    }
}

extension FormField {
    fileprivate init(_ use: FieldUse, path: String) {
        let traits = use.shape.traits
        self.init(name: use.name, path: path, label: use.label, isRequired: use.isRequired)
        type = traits.type
        widget = traits.widget
        description = traits.description
        defaultValue = traits.defaultValue
        options = traits.options
        isNullable = traits.isNullable
        constraints = traits.constraints
        encoding = traits.encoding
        fallbackReason = traits.fallbackReason
        isNeededByApp = use.isNeededByApp
        switch use.shape.children {
        case .none: break
        case .fields(let uses): children = .fields(uses.fields(under: path))
        case .item(let item): children = .item(FormField(item, path: path + "[]"))
        case .cases(let uses):
            children = .cases(
                uses.map { FormChoiceCase(key: $0.name, label: $0.label, fields: $0.shape.fields.fields(under: path + "." + $0.name)) })
        }
    }
}
