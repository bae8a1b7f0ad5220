/// A field of an earlier version whose shape the comparison cannot read (the form shows it as a
/// raw editor: a composition such as `oneOf`, several types, a cyclic `$ref`): a change there is
/// neither called compatible nor a problem, and the report says so instead of staying silent.
public struct NotComparedField: Sendable, Equatable {
    /// The field, as in the form (`content-state.legs[].gate`).
    public let path: String
    /// Why it cannot be compared: the form's fallback reason.
    public let reason: String

    /// `{"path": "content-state.stage", "reason": "oneOf makes …"}`.
    public var jsonValue: JSONValue {
        ["path": .string(path), "reason": .string(reason)]
    }
}
