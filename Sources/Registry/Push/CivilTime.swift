/// A calendar date and wall-clock time in the proleptic Gregorian calendar, checked field by
/// field. Both date formats the push API meets (`send_date`'s `YYYY-MM-DD HH:mm` and RFC 3339)
/// are fixed-width digits, so reading them needs no formatter, whose leniency (rolling
/// 2026-02-30 over to March) would accept dates the API must reject.
struct CivilTime: Equatable {
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    /// 0…60: RFC 3339 allows a leap second, counted as the first second of the next minute.
    let second: Int

    init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
        guard (1...12).contains(month), (1...CivilTime.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    /// Seconds since 1970-01-01T00:00:00 when this wall-clock time is read as UTC.
    var secondsSinceEpochAsUTC: Int {
        CivilTime.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's `days_from_civil`: exact for every proleptic Gregorian date.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads fixed-width fields out of a date text.
struct DigitScanner {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { offset == bytes.count }

    /// Reads exactly `width` ASCII digits.
    mutating func digits(_ width: Int) -> Int? {
        guard offset + width <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[offset..<offset + width] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        offset += width
        return value
    }

    /// Reads one or more ASCII digits and returns them as text (for fractions of a second).
    mutating func digitRun() -> String? {
        let start = offset
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
        return offset > start ? String(decoding: bytes[start..<offset], as: UTF8.self) : nil
    }

    /// Consumes one of `characters` and returns it.
    mutating func expect(oneOf characters: String) -> Character? {
        guard offset < bytes.count, let match = characters.first(where: { $0.asciiValue == bytes[offset] }) else {
            return nil
        }
        offset += 1
        return match
    }
}
