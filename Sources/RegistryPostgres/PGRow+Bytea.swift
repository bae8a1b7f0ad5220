extension PGRow {
    /// A `bytea` column in PostgreSQL's text form (`\x0a1b…`, the default `bytea_output`).
    public func bytea(_ column: Int) throws(PGError) -> [UInt8] {
        let text = try string(column)
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count % 2 == 0 else {
            throw PGError(kind: .unexpectedResult, debugDetail: "column \(column) is not bytea hex")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((digits.count - 2) / 2)
        var index = 2
        while index < digits.count {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else {
                throw PGError(kind: .unexpectedResult, debugDetail: "column \(column) is not bytea hex")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
