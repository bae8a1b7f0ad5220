/// RFC 3339 dates and times (section 5.6) and durations (appendix A).
enum DateTimeFormat {
    /// `full-date "T" full-time`; `T` and `Z` may be lowercase, as RFC 3339 allows.
    static func isDateTime(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count > 11, scalars[10] == "T" || scalars[10] == "t" else { return false }
        return isDate(scalars[..<10]) && isTime(scalars[11...])
    }

    /// `YYYY-MM-DD` with a day that exists in that month (Gregorian leap years).
    static func isDate(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let s = Array(scalars)
        guard s.count == 10, s[4] == "-", s[7] == "-",
              let year = asciiNumber(s[0..<4]), let month = asciiNumber(s[5..<7]), let day = asciiNumber(s[8..<10]),
              (1...12).contains(month), day >= 1 else { return false }
        return day <= daysIn(month: month, year: year)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `HH:MM:SS[.frac](Z|±HH:MM)`. Second 60 is a leap second, valid only when the time in
    /// UTC is 23:59:60.
    static func isTime(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let s = Array(scalars)
        guard s.count >= 9, s[2] == ":", s[5] == ":",
              let hour = asciiNumber(s[0..<2]), let minute = asciiNumber(s[3..<5]), let second = asciiNumber(s[6..<8]),
              hour <= 23, minute <= 59, second <= 60 else { return false }
        var index = 8
        if s[index] == "." {
            index += 1
            let start = index
            while index < s.count, s[index].isASCIIDigit { index += 1 }
            guard index > start else { return false }
        }
        guard index < s.count else { return false }
        var offsetMinutes = 0
        switch s[index] {
        case "Z", "z":
            guard index + 1 == s.count else { return false }
        case "+", "-":
            guard s.count - index == 6, s[index + 3] == ":",
                  let offsetHour = asciiNumber(s[(index + 1)...(index + 2)]), let offsetMinute = asciiNumber(s[(index + 4)...(index + 5)]),
                  offsetHour <= 23, offsetMinute <= 59 else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (s[index] == "+" ? 1 : -1)
        default:
            return false
        }
        if second == 60 {
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// `P` then a date part (`Y` [`M` [`D`]], `M` [`D`] or `D`) with an optional `T` time part
    /// (`H` [`M` [`S`]], `M` [`S`] or `S`), or weeks alone (`nW`). Integers only, ASCII digits.
    static func isDuration(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.first == "P", scalars.count > 1 else { return false }
        var components: [(designator: Unicode.Scalar, inTime: Bool)] = []
        var index = 1, inTime = false
        while index < scalars.count {
            if scalars[index] == "T" {
                guard !inTime else { return false }
                inTime = true
                index += 1
                guard index < scalars.count else { return false }
                continue
            }
            let start = index
            while index < scalars.count, scalars[index].isASCIIDigit { index += 1 }
            guard index > start, index < scalars.count else { return false }
            components.append((scalars[index], inTime))
            index += 1
        }
        let date = String(String.UnicodeScalarView(components.filter { !$0.inTime }.map(\.designator)))
        let time = String(String.UnicodeScalarView(components.filter(\.inTime).map(\.designator)))
        if date.utf8.elementsEqual("W".utf8) { return !inTime }
        let dateOrders = ["", "Y", "YM", "YMD", "M", "MD", "D"]
        let timeOrders = ["H", "HM", "HMS", "M", "MS", "S"]
        guard dateOrders.contains(where: { $0.utf8.elementsEqual(date.utf8) }) else { return false }
        if inTime { return timeOrders.contains(where: { $0.utf8.elementsEqual(time.utf8) }) }
        return !date.isEmpty
    }
}
