/// Builds the form a journey builder shows for a schema version (forms.md), so journeys fill
/// named fields instead of raw JSON.
///
/// It never fails: whatever part of a schema the form cannot express becomes a raw JSON
/// editor for that one field, because a published schema must always yield a usable form.
public enum FormBuilder {
    /// The content and attributes sections of `document`'s form, fields in the order of the
    /// schema text.
    public static func form(for document: SchemaDocument) -> FormDescriptor {
        var describer = FieldDescriber(document: document)
        let content = FormSection(
            mode: .fields,
            fields: describer.fields(of: document.contentProperties, under: "content-state", required: [], depth: 1))
        guard let attributeProperties = document.attributesProperties else {
            return FormDescriptor(content: content, attributes: FormSection(mode: .free, fields: []))
        }
        let attributes = FormSection(
            mode: .fields,
            fields: describer.fields(
                of: attributeProperties, under: "attributes", required: Set(document.attributesRequired), depth: 1))
        return FormDescriptor(content: content, attributes: attributes)
    }
}
