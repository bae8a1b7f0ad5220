/// The form of one schema version: what a journey builder renders instead of a raw JSON editor.
/// It holds only the two sections; the API layer adds application, type and version around it.
public struct FormDescriptor: Sendable, Equatable {
    /// ContentState fields, sent in every update.
    public let content: FormSection
    /// ActivityAttributes fields, sent once when the activity starts.
    public let attributes: FormSection
}

/// The fields of one part of a Live Activity.
public struct FormSection: Sendable, Equatable {
    /// Whether the schema names the fields at all.
    public enum Mode: String, Sendable {
        /// The builder shows the listed fields.
        case fields
        /// The schema has no such section: the builder keeps a free name/value list.
        case free
    }

    public let mode: Mode
    /// In the order of the schema text: the author's order is the form's order.
    public let fields: [FormField]
}
