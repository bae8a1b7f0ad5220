/// The described fields of a schema's two sections, shapes shared: what both the form's JSON
/// (`FormWriter`) and `FormDescriptor` are read from, so the two cannot disagree.
struct FormOutline {
    /// The root `properties`, whose paths start with `content-state`.
    let content: [FieldUse]
    /// `attributes.properties`, whose paths start with `attributes`; nil when the schema has no
    /// `attributes` section and the builder keeps a free name/value list.
    let attributes: [FieldUse]?

    static let contentPath = "content-state"
    static let attributesPath = "attributes"

    init(_ document: SchemaDocument) {
        var describer = FieldDescriber(document: document)
        content = describer.sectionUses(
            of: document.contentProperties, required: [], neededByApp: document.root.requiredNames)
        attributes = document.attributesProperties.map {
            describer.sectionUses(of: $0, required: document.attributesRequired)
        }
    }
}
