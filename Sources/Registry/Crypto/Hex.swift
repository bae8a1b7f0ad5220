/// Lowercase hexadecimal.
public enum Hex {
    @inlinable
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes: Array(bytes))
    }

    public static func encode(bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            digits.withUTF8Buffer { digits in
                for (index, byte) in bytes.enumerated() {
                    out[2 * index] = digits[Int(byte >> 4)]
                    out[2 * index + 1] = digits[Int(byte & 0xF)]
                }
            }
            return bytes.count * 2
        }
    }
}
