/// The limits a builder can check while the user types, in the order the form lists them. The
/// schema's values are copied verbatim (`1.50` stays `1.50`) because the builder, not the
/// registry, interprets them.
enum FormConstraint: Int, CaseIterable {
    case minLength, maxLength, pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf
    case minItems, maxItems, format

    /// The constraint a JSON Schema keyword sets, if any.
    init?(keyword: String) {
        switch keyword {
        case "minLength": self = .minLength
        case "maxLength": self = .maxLength
        case "pattern": self = .pattern
        case "minimum": self = .minimum
        case "maximum": self = .maximum
        case "exclusiveMinimum": self = .exclusiveMinimum
        case "exclusiveMaximum": self = .exclusiveMaximum
        case "multipleOf": self = .multipleOf
        case "minItems": self = .minItems
        case "maxItems": self = .maxItems
        case "format": self = .format
        default: return nil
        }
    }

    /// The form's snake_case key.
    var formKey: String {
        switch self {
        case .minLength: "min_length"
        case .maxLength: "max_length"
        case .pattern: "pattern"
        case .minimum: "minimum"
        case .maximum: "maximum"
        case .exclusiveMinimum: "exclusive_minimum"
        case .exclusiveMaximum: "exclusive_maximum"
        case .multipleOf: "multiple_of"
        case .minItems: "min_items"
        case .maxItems: "max_items"
        case .format: "format"
        }
    }
}
