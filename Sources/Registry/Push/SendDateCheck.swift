import Foundation

/// The `send_date` and `timezone` rules of the push API: `now` or a local `YYYY-MM-DD HH:mm`
/// read in an IANA zone (UTC when none is given), at most 1 day in the past and at most 30 days
/// ahead, both bounds inclusive.
enum SendDateCheck {
    static let maxSecondsInPast = 86_400
    static let maxSecondsAhead = 30 * 86_400

    /// Problems of the two fields, given as sent (nil when absent or null), judged against `now`
    /// (Unix seconds). An unknown zone is an error even without a `send_date`, because the API
    /// validates the field on its own.
    static func problems(sendDate: JSONValue?, timezone: JSONValue?, now: Double) -> [PushProblem] {
        var problems: [PushProblem] = []
        var zone = TimeZone(identifier: "UTC")
        var zoneName = "UTC"
        switch timezone {
        case nil:
            break
        case .string(let name):
            zone = TimeZone(identifier: name)
            zoneName = name
            if zone == nil {
                let quoted = ClientText.quoted(name)
                problems.append(.error("timezone", "unknown time zone \(quoted); use an IANA name such as Europe/Berlin"))
            }
        case let other?:
            problems.append(.error("timezone", "must be a string, not \(other.typeName)"))
            zone = nil
        }
        switch sendDate {
        case nil, .string("now"):
            break
        case .string(let text):
            guard let local = localTime(text) else {
                let quoted = ClientText.quoted(text)
                problems.append(.error("send_date", #"must be "now" or a local time YYYY-MM-DD HH:mm, not \#(quoted)"#))
                break
            }
            guard let zone else { break }
            let (unixSeconds, note) = resolve(local, in: zone, named: zoneName)
            if let note { problems.append(.warning("send_date", "\(text) \(note)")) }
            if Double(unixSeconds) < now - Double(maxSecondsInPast) {
                problems.append(.error("send_date", "\(text) in \(zoneName) is more than 1 day in the past"))
            } else if Double(unixSeconds) > now + Double(maxSecondsAhead) {
                problems.append(.error("send_date", "\(text) in \(zoneName) is more than 30 days ahead"))
            }
        case let other?:
            problems.append(.error("send_date", "must be a string, not \(other.typeName)"))
        }
        return problems
    }

    /// `YYYY-MM-DD HH:mm`, exactly.
    private static func localTime(_ text: String) -> CivilTime? {
        var scanner = DigitScanner(text)
        guard let year = scanner.digits(4), scanner.expect(oneOf: "-") != nil,
            let month = scanner.digits(2), scanner.expect(oneOf: "-") != nil,
            let day = scanner.digits(2), scanner.expect(oneOf: " ") != nil,
            let hour = scanner.digits(2), scanner.expect(oneOf: ":") != nil,
            let minute = scanner.digits(2), scanner.isAtEnd
        else { return nil }
        return CivilTime(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    /// The Unix time of a wall-clock time in `zone`. Around a daylight-saving change a local time
    /// can be skipped (read with the offset in force before the change, so 02:30 in a gap that
    /// jumps from 02:00 to 03:00 becomes 03:30 — Foundation's own choice) or happen twice (the
    /// first occurrence wins); either way the note says so, since the sender may mean otherwise.
    private static func resolve(_ local: CivilTime, in zone: TimeZone, named zoneName: String) -> (unixSeconds: Int, note: String?) {
        let wallClock = local.secondsSinceEpochAsUTC
        func offset(at unixSeconds: Int) -> Int {
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(unixSeconds)))
        }
        // A day either side brackets any transition, so these are the offsets before and after it.
        let earlier = offset(at: wallClock - 86_400)
        let later = offset(at: wallClock + 86_400)
        let matches = Set([earlier, later]).filter { offset(at: wallClock - $0) == $0 }.map { wallClock - $0 }.sorted()
        switch matches.count {
        case 0:
            return (
                wallClock - earlier,
                "does not exist in \(zoneName) (the clocks skip it); it is read with the earlier offset \(utcOffset(earlier))"
            )
        case 1:
            return (matches[0], nil)
        default:
            return (
                matches[0],
                "happens twice in \(zoneName) (the clocks go back); the first one, at \(utcOffset(wallClock - matches[0])), is used"
            )
        }
    }

    /// `UTC+01:00`, `UTC-05:00`.
    private static func utcOffset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hh = String(minutes / 60), mm = String(minutes % 60)
        return "UTC\(seconds < 0 ? "-" : "+")\(hh.count < 2 ? "0" + hh : hh):\(mm.count < 2 ? "0" + mm : mm)"
    }
}
