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

    /// Appends `string` as a quoted JSON string.
    public static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(string, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends the characters of `string` as they stand between the quotes of a JSON string.
    /// Escaping works character by character, so the escaped pieces of a string can be joined
    /// (a form writes each path as its parent's path and the field's name).
    ///
    /// Lists and pages write megabytes of schema text, where a quote comes every few bytes; so
    /// the escaped length is counted first, the room made once, and the bytes written straight
    /// into it, instead of one growing append per run and per escape.
    public static func writeEscaped(_ string: String, into out: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            let start = out.count
            let length = escapedLength(bytes)
            // Room for this and the closing quote; grown geometrically, since a request for
            // exactly this much would copy the whole buffer again and again.
            let needed = start + length + 1
            if needed > out.capacity { out.reserveCapacity(max(needed, 2 * out.capacity)) }
            if length == bytes.count {
                out.append(contentsOf: bytes)
                return
            }
            out.append(contentsOf: repeatElement(0, count: length))
            out.withUnsafeMutableBufferPointer { buffer in
                var position = start
                var runStart = 0
                var index = nextEscape(in: bytes, from: 0)
                while index < bytes.count {
                    copy(bytes, from: runStart, to: index, into: buffer, at: &position)
                    position = writeEscape(bytes[index], into: buffer, at: position)
                    runStart = index + 1
                    index = nextEscape(in: bytes, from: runStart)
                }
                copy(bytes, from: runStart, to: bytes.count, into: buffer, at: &position)
            }
        }
    }

    /// How many bytes `writeEscaped` appends for `string`, so a writer can size its buffer once.
    public static func escapedCount(of string: String) -> Int {
        var string = string
        return string.withUTF8 { escapedLength($0) }
    }

    private static func escapedLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = bytes.count
        var index = nextEscape(in: bytes, from: 0)
        while index < bytes.count {
            switch bytes[index] {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: count += 1
            default: count += 5
            }
            index = nextEscape(in: bytes, from: index + 1)
        }
        return count
    }

    /// The index of the first byte at or after `start` that needs an escape, or the count.
    /// Schema text is mostly plain, so it is scanned eight bytes at a time: a word is skipped
    /// when none of its bytes is below 0x20 or equal to `"`, `\` or DEL (exact tests: a byte
    /// that needs escaping is never skipped).
    @inline(__always)
    private static func nextEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count, !mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
        }
        while index < bytes.count, !needsEscape(bytes[index]) { index += 1 }
        return index
    }

    /// Whether any byte of `word` is below 0x20 or is 0x22, 0x5C or 0x7F. `(w - 0x01…01 × n) &
    /// ~w & 0x80…80` is non-zero exactly when some byte of `w` is below `n` (n ≤ 0x80); a byte
    /// equal to `c` is a zero byte of `w ^ (0x01…01 × c)`.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ value: UInt64, _ limit: UInt64) -> Bool { (value &- ones &* limit) & ~value & highs != 0 }
        return hasByteBelow(word, 0x20) || hasByteBelow(word ^ (ones &* 0x22), 1) || hasByteBelow(word ^ (ones &* 0x5C), 1)
            || hasByteBelow(word ^ (ones &* 0x7F), 1)
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    @inline(__always)
    private static func copy(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into buffer: UnsafeMutableBufferPointer<UInt8>,
        at position: inout Int
    ) {
        guard end > start else { return }
        (buffer.baseAddress! + position).update(from: bytes.baseAddress! + start, count: end - start)
        position += end - start
    }

    /// Writes the escape for `byte` at `position`; returns the position after it.
    private static func writeEscape(_ byte: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int) -> Int {
        buffer[position] = 0x5C
        let short: UInt8? = switch byte {
        case 0x22: 0x22
        case 0x5C: 0x5C
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        default: nil
        }
        if let short {
            buffer[position + 1] = short
            return position + 2
        }
        buffer[position + 1] = UInt8(ascii: "u")
        buffer[position + 2] = UInt8(ascii: "0")
        buffer[position + 3] = UInt8(ascii: "0")
        buffer[position + 4] = hexDigit(byte >> 4)
        buffer[position + 5] = hexDigit(byte & 0xF)
        return position + 6
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
