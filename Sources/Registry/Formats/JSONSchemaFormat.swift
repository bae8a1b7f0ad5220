/// The `format` values JSON Schema defines, checked as its format-assertion vocabulary says.
///
/// Interface only for now: this stub knows no format; the real checks replace the body.
public enum JSONSchemaFormat {
    /// Whether `value` is a valid `format`; nil when the format is not one this registry knows
    /// (an unknown format is an annotation and never fails).
    public static func check(_ format: String, _ value: String) -> Bool? {
        nil
    }
}
