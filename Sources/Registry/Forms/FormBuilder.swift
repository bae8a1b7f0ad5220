/// Builds the form a journey builder shows for a schema version, so journeys fill
/// named fields instead of raw JSON.
///
/// It never fails: whatever part of a schema the form cannot express becomes a raw JSON
/// editor for that one field, because a published schema must always yield a usable form.
/// `FormWriter` writes the same form as JSON.
public enum FormBuilder {
    /// The content and attributes sections of `document`'s form, fields in the order of the
    /// schema text.
    public static func form(for document: SchemaDocument) -> FormDescriptor {
        FormDescriptor(FormOutline(document))
    }
}
