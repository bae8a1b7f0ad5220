/// Standard base64 (RFC 4648 §4, with padding), as webhook secrets and signatures spell bytes.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let count = min(3, bytes.count - i)
            var n = UInt32(bytes[i]) << 16
            if count > 1 { n |= UInt32(bytes[i + 1]) << 8 }
            if count > 2 { n |= UInt32(bytes[i + 2]) }
            for j in 0..<4 {
                out.append(j <= count ? alphabet[Int((n >> (18 - 6 * UInt32(j))) & 0x3F)] : UInt8(ascii: "="))
            }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` spells, or nil unless it is canonical padded base64.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < characters.count {
            var n: UInt32 = 0
            var padding = 0
            for j in 0..<4 {
                let character = characters[i + j]
                if character == UInt8(ascii: "="), i + 4 == characters.count, j >= 2 {
                    padding += 1
                    continue
                }
                guard padding == 0, let index = alphabet.firstIndex(of: character) else { return nil }
                n |= UInt32(index) << (18 - 6 * UInt32(j))
            }
            for j in 0..<(3 - padding) { out.append(UInt8(truncatingIfNeeded: n >> (16 - 8 * UInt32(j)))) }
            i += 4
        }
        guard encode(out) == text else { return nil }
        return out
    }
}
