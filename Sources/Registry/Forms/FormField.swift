/// One named input of a journey builder's form. It carries only what the builder needs to
/// render an editor and check a value, so the builder never has to read JSON Schema itself.
public struct FormField: Sendable, Equatable {
    /// The JSON key the value is sent under.
    public internal(set) var name: String
    /// Where the value sits in the push payload (`content-state.legs[].gate`), so the builder
    /// can place it without knowing the schema's nesting.
    public internal(set) var path: String
    /// The schema's `title`, else the name made readable, because authors rarely write titles.
    public internal(set) var label: String
    /// What the value is in JSON, so the builder can check it before sending.
    public internal(set) var type: FormFieldType
    /// The editor to show, chosen from the type, format and values the schema allows.
    public internal(set) var widget: FormWidget
    /// Whether a journey must fill the field: never for content state, which a journey may
    /// leave untouched.
    public internal(set) var isRequired: Bool
    /// A content field the schema's root `required` lists: a journey may leave it out, but the
    /// app's ContentState cannot decode an update without it, so builders should ask for it.
    public internal(set) var isNeededByApp: Bool
    /// The schema's `description`, shown as help beside the input.
    public internal(set) var description: String?
    /// The schema's `default`, verbatim, so number lexemes such as `1.50` survive.
    public internal(set) var defaultValue: JSONValue?
    /// The choices of a `select`; empty for every other widget.
    public internal(set) var options: [FormOption]
    /// The schema allows `null` beside the field's one type.
    public internal(set) var isNullable: Bool
    /// Limits copied from the schema under the form's snake_case names (`min_length`, …), in a
    /// fixed order; empty when the schema sets none.
    public internal(set) var constraints: JSONObject
    /// How a `datetime` value is written when it is not a string.
    public internal(set) var encoding: FormValueEncoding?
    /// Why the field is a raw `json` editor, when the schema says more than it can show.
    public internal(set) var fallbackReason: String?
    /// Nested fields of a `group`, the item of a `list`, or the cases of a `choice`.
    public internal(set) var children: FormFieldChildren

    /// A field the form cannot describe more precisely: `any` in a raw JSON editor.
    init(name: String, path: String, label: String, isRequired: Bool) {
        self.name = name
        self.path = path
        self.label = label
        self.type = .any
        self.widget = .json
        self.isRequired = isRequired
        self.isNeededByApp = false
        self.description = nil
        self.defaultValue = nil
        self.options = []
        self.isNullable = false
        self.constraints = JSONObject()
        self.encoding = nil
        self.fallbackReason = nil
        self.children = .none
    }
}

/// What a field holds, in JSON terms; `any` when the schema does not pin one type.
public enum FormFieldType: String, Sendable, CaseIterable {
    case string, number, integer, boolean, object, array, any
}

/// Which editor the builder shows; `json` is the raw editor every field can fall back to.
public enum FormWidget: String, Sendable {
    case text, textarea, number, toggle, select, datetime, url, color, group, list, choice, json
}

/// One choice of a `select`: the exact JSON value to send and the text to show for it.
public struct FormOption: Sendable, Equatable {
    /// Verbatim from `enum` or `const`: the app's decoder needs exactly this value.
    public let value: JSONValue
    /// A string value made readable (`on_time` → `On time`); other values as their JSON text.
    public let label: String
}

/// A non-string representation of a date the app decodes, so the builder converts what the
/// user picks into what the app expects.
public enum FormValueEncoding: String, Sendable {
    /// Swift `Date` with `JSONDecoder` defaults: seconds since 2001-01-01T00:00:00Z, not Unix time.
    case appleReferenceSeconds = "apple-reference-seconds"
}

/// One case a `choice` offers: the value is `{key: {…fields…}}`.
public struct FormChoiceCase: Sendable, Equatable {
    /// The enum case's name, the value's one key, verbatim.
    public let key: String
    /// The branch's `title`, else the payload's, else the key made readable.
    public let label: String
    /// The case's associated values, at paths under `choice-path.key`; empty for a case without.
    public let fields: [FormField]
}

/// What lies below a field. A field is a group, a list or a choice, never two, so one enum
/// keeps the impossible combinations out.
public enum FormFieldChildren: Sendable, Equatable {
    case none
    case fields([FormField])
    indirect case item(FormField)
    /// The cases of a `choice`, in the order of the schema text.
    case cases([FormChoiceCase])

    /// The nested fields of a group; empty for anything else.
    public var fields: [FormField] {
        if case .fields(let fields) = self { fields } else { [] }
    }

    /// The item of a list.
    public var item: FormField? {
        if case .item(let item) = self { item } else { nil }
    }

    /// The cases of a choice; empty for anything else.
    public var cases: [FormChoiceCase] {
        if case .cases(let cases) = self { cases } else { [] }
    }
}
