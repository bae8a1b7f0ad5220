/// `key=value` labels on a type or a version (`team=checkout`, `app_version=2.3.1`): few and
/// short, so they can be searched by an index and shown in a list. Keys are lowercase ASCII, so
/// two keys that look alike are the same bytes; values are free text without control characters.
public enum Labels {
    public static let maxCount = 32
    public static let maxKeyBytes = 63
    public static let maxValueBytes = 256

    /// The labels of `value` (a JSON object of strings), sorted by key bytes so every reader
    /// shows one order; anything else, or a label past a limit, is a 400 naming `field`.
    public static func parse(_ value: JSONValue?, field: String) throws(RegistryError) -> JSONObject {
        switch value {
        case nil, .null?:
            return JSONObject()
        case .object(let object)?:
            guard object.count <= maxCount else { throw .invalidArgument("\(field): at most \(maxCount) labels, got \(object.count)") }
            for member in object.members {
                try validate(key: member.key, field: field)
                guard case .string(let text) = member.value else {
                    throw .invalidArgument("\(field).\(member.key): must be a string, not \(member.value.typeName)")
                }
                try validate(value: text, key: member.key, field: field)
            }
            return sorted(object)
        case let other?:
            throw .invalidArgument("\(field): must be an object of key: value strings, not \(other.typeName)")
        }
    }

    /// The rule for a key: `^[a-z0-9][a-z0-9_.-]{0,62}$`.
    public static func validate(key: String, field: String) throws(RegistryError) {
        let bytes = Array(key.utf8)
        let isStart = { (byte: UInt8) in (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        let isRest = { (byte: UInt8) in isStart(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") }
        guard let first = bytes.first, isStart(first), bytes.count <= maxKeyBytes, bytes.dropFirst().allSatisfy(isRest) else {
            throw .invalidArgument(
                "\(field): label key \(ClientText.quoted(key)) must be 1 to \(maxKeyBytes) of a-z, 0-9, '_', '.', '-', starting with a letter or digit")
        }
    }

    public static func validate(value: String, key: String, field: String) throws(RegistryError) {
        guard value.utf8.count <= maxValueBytes else {
            throw .invalidArgument("\(field).\(key): at most \(maxValueBytes) bytes, got \(value.utf8.count)")
        }
        guard !MetadataText.hasControlCharacters(value, allowingLineBreaks: false) else {
            throw .invalidArgument("\(field).\(key): must not contain control characters")
        }
    }

    /// `object` with its members in byte order of their keys.
    public static func sorted(_ object: JSONObject) -> JSONObject {
        JSONObject(object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    }
}

/// The text rules metadata shares.
public enum MetadataText {
    /// A text field of at most `maxBytes`; absent or `null` is "". Multi-line fields (a
    /// description, release notes) may hold line breaks and tabs; no field holds other control
    /// characters, which would reach terminals and logs that show it.
    public static func parse(_ value: JSONValue?, field: String, maxBytes: Int, multiline: Bool) throws(RegistryError) -> String {
        switch value {
        case nil, .null?:
            return ""
        case .string(let text)?:
            guard text.utf8.count <= maxBytes else { throw .invalidArgument("\(field): at most \(maxBytes) bytes, got \(text.utf8.count)") }
            guard !hasControlCharacters(text, allowingLineBreaks: multiline) else {
                throw .invalidArgument("\(field): must not contain control characters\(multiline ? " other than tab and line breaks" : "")")
            }
            return text
        case let other?:
            throw .invalidArgument("\(field): must be a string, not \(other.typeName)")
        }
    }

    static func hasControlCharacters(_ text: String, allowingLineBreaks: Bool) -> Bool {
        text.unicodeScalars.contains { scalar in
            let value = scalar.value
            if allowingLineBreaks, value == 0x09 || value == 0x0A || value == 0x0D { return false }
            return value < 0x20 || value == 0x7F
        }
    }
}
