/// Strict percent-decoding for request path segments and query names and values: a `%` not
/// followed by two hex digits, or bytes that do not decode to valid UTF-8 (overlong forms
/// included), make the whole input invalid instead of being passed through, so a malformed
/// name is refused with a 400 rather than looked up.
enum PercentDecoding {
    /// The decoded string, or nil when the encoding or the UTF-8 it yields is invalid.
    static func decode(_ input: String) -> String? {
        // Most inputs have nothing to decode, and a Swift string is valid UTF-8 already.
        if !input.utf8.contains(UInt8(ascii: "%")) { return input }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.utf8.count)
        var iterator = input.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
