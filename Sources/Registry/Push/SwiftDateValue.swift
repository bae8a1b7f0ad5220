/// What a Swift `Date` looks like in `content-state`: with default `Codable`, a number of seconds
/// since 2001-01-01T00:00:00Z (Apple's reference date), not Unix time. Journey builders hold
/// dates as RFC 3339 text, so the payload preview converts them; sending the text would make
/// the device's `JSONDecoder` fail silently.
enum SwiftDateValue {
    /// 2001-01-01T00:00:00Z in Unix seconds.
    static let referenceDateUnixSeconds = 978_307_200

    /// The JSON number for an RFC 3339 `date-time` (`2026-09-01T10:00:00Z`,
    /// `2026-09-01T12:00:00.5+02:00`), or nil when the text is not one. The separator must be
    /// `T` (or `t`) and the offset is mandatory, as RFC 3339's grammar says; a whole number of
    /// seconds is written as an integer, a fraction as the shortest `Double` text, the precision
    /// a Swift `Date` holds anyway.
    static func number(fromRFC3339 text: String) -> JSONValue? {
        var scanner = DigitScanner(text)
        guard let year = scanner.digits(4), scanner.expect(oneOf: "-") != nil,
            let month = scanner.digits(2), scanner.expect(oneOf: "-") != nil,
            let day = scanner.digits(2), scanner.expect(oneOf: "Tt") != nil,
            let hour = scanner.digits(2), scanner.expect(oneOf: ":") != nil,
            let minute = scanner.digits(2), scanner.expect(oneOf: ":") != nil,
            let second = scanner.digits(2),
            let time = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var fraction = ""
        if scanner.expect(oneOf: ".") != nil {
            guard let digits = scanner.digitRun() else { return nil }
            fraction = digits
        }
        guard let offset = utcOffsetSeconds(&scanner), scanner.isAtEnd else { return nil }
        let whole = time.secondsSinceEpochAsUTC - offset - referenceDateUnixSeconds
        guard fraction.contains(where: { $0 != "0" }), let part = Double("0." + fraction) else {
            return .number(String(whole))
        }
        return .number((Double(whole) + part).description)
    }

    /// `Z`, `z` or `±HH:MM`, in seconds east of UTC.
    private static func utcOffsetSeconds(_ scanner: inout DigitScanner) -> Int? {
        switch scanner.expect(oneOf: "Zz+-") {
        case "Z", "z":
            return 0
        case let sign?:
            guard let hours = scanner.digits(2), hours <= 23, scanner.expect(oneOf: ":") != nil,
                let minutes = scanner.digits(2), minutes <= 59
            else { return nil }
            return (sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
        case nil:
            return nil
        }
    }
}
