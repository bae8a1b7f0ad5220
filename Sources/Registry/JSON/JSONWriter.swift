/// Serialises `JSONValue`s compactly. Strings escape quotes, backslashes and every control
/// character; everything else, non-ASCII included, is written as is (valid UTF-8 in, valid
/// UTF-8 out). Number lexemes are written verbatim.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The compact JSON text of `value` as UTF-8 bytes.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    /// Appends the compact JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a quoted JSON string.
    public static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(string, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends the characters of `string` as they stand between the quotes of a JSON string.
    /// Escaping works character by character, so the escaped pieces of a string can be joined
    /// (a form writes each path as its parent's path and the field's name). Runs of bytes that
    /// need no escape (nearly all of a schema text) are copied in one step; lists and pages
    /// write megabytes of them.
    public static func writeEscaped(_ string: String, into out: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            // Room for the quotes and the most common escape; grown geometrically, since a
            // request for exactly this much would copy the whole buffer again and again.
            let needed = out.count + bytes.count + 2
            if needed > out.capacity { out.reserveCapacity(max(needed, 2 * out.capacity)) }
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(byte, into: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }

    /// How many bytes `writeEscaped` appends for `string`, so a writer can size its buffer once.
    public static func escapedCount(of string: String) -> Int {
        var string = string
        return string.withUTF8 { bytes in
            var count = bytes.count
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
                switch byte {
                case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: count += 1
                default: count += 5
                }
            }
            return count
        }
    }

    private static func appendEscape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case 0x22: out.append(contentsOf: [0x5C, 0x22])
        case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        default:
            out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xF)])
        }
    }
}
