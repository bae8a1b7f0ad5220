/// ASCII case folding for header names, done on bytes: it runs for every header of every
/// request and response, where `String.lowercased()` would allocate and consult Unicode tables.
enum ASCIICase {
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        isUppercase(byte) ? byte + 32 : byte
    }

    @inline(__always)
    static func isUppercase(_ byte: UInt8) -> Bool {
        (65...90).contains(byte)
    }

    /// True when `bytes` spell `lowercaseName` in any letter case.
    static func matches(_ bytes: some Collection<UInt8>, _ lowercaseName: StaticString) -> Bool {
        bytes.count == lowercaseName.utf8CodeUnitCount
            && lowercaseName.withUTF8Buffer { name in zip(bytes, name).allSatisfy { lowercased($0) == $1 } }
    }
}
