import Registry
import Testing

/// `send_date` and `timezone`, through the preview. The clock is injected, so every bound is exact.
@Suite struct PushSendDateTests {
    func problems(sendDate: String?, timezone: String? = nil, now: Double) throws -> [PushProblem] {
        var notification = try pushObject(#"{"live_activity_id":"la","live_activity":{"event":"update","content-state":{}}}"#)
        notification["send_date"] = sendDate.map(JSONValue.string)
        notification["timezone"] = timezone.map(JSONValue.string)
        return LiveActivityPreview.preview(notification, call: .update, bundleID: "b", schema: nil, now: now).problems
    }

    /// 2026-06-16T16:00:00Z.
    let june = 1_781_625_600.0

    @Test func nowAndAbsentAreAccepted() throws {
        #expect(try problems(sendDate: nil, now: june).isEmpty)
        #expect(try problems(sendDate: "now", now: june).isEmpty)
    }

    @Test func exactly30DaysAheadIsAcceptedAndOneMinuteMoreIsNot() throws {
        #expect(try problems(sendDate: "2026-07-16 16:00", now: june).isEmpty)
        let late = try problems(sendDate: "2026-07-16 16:01", now: june)
        #expect(late == [.init(path: "send_date", message: "2026-07-16 16:01 in UTC is more than 30 days ahead", severity: .error)])
    }

    @Test func exactly1DayPastIsAcceptedAndOneMinuteMoreIsNot() throws {
        #expect(try problems(sendDate: "2026-06-15 16:00", now: june).isEmpty)
        let early = try problems(sendDate: "2026-06-15 15:59", now: june)
        #expect(early == [.init(path: "send_date", message: "2026-06-15 15:59 in UTC is more than 1 day in the past", severity: .error)])
    }

    @Test func theBoundsCompareInstantsNotWholeMinutes() throws {
        // now is 16:00:30; 30 days later 16:00 fits and 16:01 does not; a day earlier 16:00 does not.
        #expect(try problems(sendDate: "2026-07-16 16:00", now: june + 30).isEmpty)
        #expect(try problems(sendDate: "2026-07-16 16:01", now: june + 30).count == 1)
        #expect(try problems(sendDate: "2026-06-15 16:00", now: june + 30).count == 1)
    }

    @Test func localTimeIsReadWithTheOffsetInForceThenInBerlin() throws {
        // now: 2026-03-29T12:00:00Z, after the change to CEST at 01:00Z. One day earlier Berlin
        // was still on CET (UTC+1), so the bound 2026-03-28T12:00Z is 13:00 local, not 14:00.
        let now = 1_774_785_600.0
        #expect(try problems(sendDate: "2026-03-28 13:00", timezone: "Europe/Berlin", now: now).isEmpty)
        #expect(try problems(sendDate: "2026-03-28 12:59", timezone: "Europe/Berlin", now: now).map(\.severity) == [.error])
    }

    @Test func thirtyDaysAheadAcrossTheNewYorkFallBack() throws {
        // now: 2026-10-20T12:00:00Z (EDT, UTC-4); 30 days on is 2026-11-19T12:00Z, 07:00 EST (UTC-5).
        let now = 1_792_497_600.0
        #expect(try problems(sendDate: "2026-11-19 07:00", timezone: "America/New_York", now: now).isEmpty)
        let late = try problems(sendDate: "2026-11-19 07:01", timezone: "America/New_York", now: now)
        #expect(late.map(\.message) == ["2026-11-19 07:01 in America/New_York is more than 30 days ahead"])
    }

    @Test func aSkippedLocalTimeIsReadWithTheEarlierOffsetAndWarned() throws {
        // 02:30 does not exist in Berlin on 2026-03-29; read at UTC+1 it is 01:30Z, exactly one
        // day before now (2026-03-30T01:30:00Z), so it is still accepted.
        let result = try problems(sendDate: "2026-03-29 02:30", timezone: "Europe/Berlin", now: 1_774_834_200)
        #expect(result.map(\.severity) == [.warning])
        #expect(
            result.first?.message
                == "2026-03-29 02:30 does not exist in Europe/Berlin (the clocks skip it); it is read with the earlier offset UTC+01:00"
        )
    }

    @Test func aRepeatedLocalTimeUsesTheFirstOccurrenceAndWarns() throws {
        // 02:30 happens twice in Berlin on 2026-10-25: at 00:30Z (CEST) and 01:30Z (CET). The
        // first is exactly one day before now (2026-10-26T00:30:00Z), so it is accepted.
        let result = try problems(sendDate: "2026-10-25 02:30", timezone: "Europe/Berlin", now: 1_792_974_600)
        #expect(result.map(\.severity) == [.warning])
        #expect(result.first?.message.contains("the first one, at UTC+02:00, is used") == true)
        let minuteLater = try problems(sendDate: "2026-10-25 02:30", timezone: "Europe/Berlin", now: 1_792_974_660)
        #expect(minuteLater.map(\.severity) == [.warning, .error])
    }

    @Test func utcIsTheDefaultZone() throws {
        #expect(try problems(sendDate: "2026-07-16 16:00", timezone: "UTC", now: june).isEmpty)
        #expect(try problems(sendDate: "2026-07-16 16:00", timezone: "Asia/Tokyo", now: june).isEmpty)
        #expect(try problems(sendDate: "2026-07-17 01:00", timezone: "Asia/Tokyo", now: june).isEmpty)
        #expect(try problems(sendDate: "2026-07-17 01:01", timezone: "Asia/Tokyo", now: june).count == 1)
    }

    @Test func anUnknownZoneIsAnError() throws {
        let result = try problems(sendDate: "2026-06-17 10:00", timezone: "Mars/Olympus_Mons", now: june)
        #expect(result == [.init(path: "timezone", message: #"unknown time zone "Mars/Olympus_Mons"; use an IANA name such as Europe/Berlin"#, severity: .error)])
        #expect(try problems(sendDate: nil, timezone: "", now: june).map(\.path) == ["timezone"])
    }

    @Test func malformedSendDatesAreErrors() throws {
        for text in ["2026-6-16 16:00", "2026-06-16T16:00", "2026-06-16 16:00:00", "2026-02-30 10:00", "2026-06-16 24:00", "later", ""] {
            #expect(try problems(sendDate: text, now: june).map(\.path) == ["send_date"], "\(text)")
        }
    }

    @Test func nonStringSendDateAndZoneAreErrors() throws {
        var notification = try pushObject(#"{"live_activity_id":"la","send_date":1781625600,"timezone":1,"live_activity":{"event":"update","content-state":{}}}"#)
        let result = LiveActivityPreview.preview(notification, call: .update, bundleID: "b", schema: nil, now: june)
        #expect(result.problems.map(\.path) == ["timezone", "send_date"])
        notification["timezone"] = nil
        #expect(LiveActivityPreview.preview(notification, call: .update, bundleID: "b", schema: nil, now: june).problems.count == 1)
    }
}
