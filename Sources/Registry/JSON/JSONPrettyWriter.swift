/// Serialises `JSONValue`s for people to read (a generated schema printed by the CLI, to be
/// reviewed or committed): two-space indentation, `": "` after keys, keys in their order, empty
/// containers as `{}` and `[]`, and arrays of scalars on one line (`"type": ["string", "null"]`,
/// `"required": [...]`) so that lists stay as compact as authors write them. Strings and numbers
/// are written exactly as `JSONWriter` writes them.
public enum JSONPrettyWriter {
    /// The indented JSON text of `value`, without a trailing newline: whether one follows is the
    /// caller's choice (a file wants it, an embedded snippet does not).
    public static func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        write(value, indent: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .array(let elements) where elements.allSatisfy(\.isScalar):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(contentsOf: ", ".utf8) }
                JSONWriter.write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                newline(indent: indent + 1, after: i > 0, into: &out)
                write(element, indent: indent + 1, into: &out)
            }
            newline(indent: indent, after: false, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                newline(indent: indent + 1, after: i > 0, into: &out)
                JSONWriter.writeString(member.key, into: &out)
                out.append(contentsOf: ": ".utf8)
                write(member.value, indent: indent + 1, into: &out)
            }
            newline(indent: indent, after: false, into: &out)
            out.append(UInt8(ascii: "}"))
        default:
            JSONWriter.write(value, into: &out)
        }
    }

    /// Starts a new line at `indent` levels, after a comma when it follows a sibling.
    private static func newline(indent: Int, after sibling: Bool, into out: inout [UInt8]) {
        if sibling { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }
}

extension JSONValue {
    fileprivate var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
