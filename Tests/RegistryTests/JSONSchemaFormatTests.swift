import Registry
import Testing

/// Format checks beyond the suite: the values the issue measured as wrongly valid, names
/// compared as bytes, and unknown formats left as annotations.
@Suite struct JSONSchemaFormatTests {
    @Test func measuredValuesAreRefused() {
        #expect(JSONSchemaFormat.check("uri", "not a url") == false)
        #expect(JSONSchemaFormat.check("date-time", "tomorrow") == false)
        #expect(JSONSchemaFormat.check("email", "nope") == false)
        #expect(JSONSchemaFormat.check("uuid", "not-a-uuid") == false)
        #expect(JSONSchemaFormat.check("uuid", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8") == true)
        #expect(JSONSchemaFormat.check("date-time", "2026-12-01T20:00:00.5+01:00") == true)
    }

    @Test func unknownFormatsAreAnnotations() {
        #expect(JSONSchemaFormat.check("color", "red") == nil)
        #expect(JSONSchemaFormat.check("Date", "x") == nil, "format names are case-sensitive")
        #expect(JSONSchemaFormat.known.count == 19)
    }

    @Test func combiningMarksAreNotHiddenByGraphemes() {
        #expect(JSONSchemaFormat.check("date", "2020-01-01\u{301}") == false)
        #expect(JSONSchemaFormat.check("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380\u{301}") == false)
        #expect(JSONSchemaFormat.check("ipv4", "1.2.3.4\r\n") == false)
    }

    @Test func leapSecondsAreValidOnlyAtTheEndOfAUTCDay() {
        #expect(JSONSchemaFormat.check("time", "23:59:60Z") == true)
        #expect(JSONSchemaFormat.check("time", "00:29:60-23:30") == true)
        #expect(JSONSchemaFormat.check("time", "12:59:60Z") == false)
    }

    @Test func regexFormatUsesECMASyntax() {
        #expect(JSONSchemaFormat.check("regex", "^[a-z]+(?<n>x)\\k<n>$") == true)
        #expect(JSONSchemaFormat.check("regex", "(?i)abc") == false)
    }
}
