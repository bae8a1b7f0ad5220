import Registry
import Testing

/// RFC 3339 text in `x-swift-type: Date` fields becomes seconds since 2001-01-01T00:00:00Z,
/// what a Swift `Date` decodes from by default.
@Suite struct PushSwiftDateTests {
    func converted(_ text: String) throws -> JSONValue? {
        let schema = try pushSchema(#"{"type":"object","properties":{"at":{"type":"number","x-swift-type":"Date"}}}"#)
        let check = PushValueChecker.check(schema, event: .update, contentState: ["at": .string(text)], attributes: nil)
        return check.valid ? check.contentState["at"] : nil
    }

    @Test func theReferenceDateIsZero() throws {
        #expect(try converted("2001-01-01T00:00:00Z") == .number("0"))
    }

    @Test func aKnownDateIsSecondsSinceTheReferenceDate() throws {
        // 2026-09-01T10:00:00Z is Unix 1788256800; minus 978307200.
        #expect(try converted("2026-09-01T10:00:00Z") == .number("809949600"))
        #expect(try converted("2026-09-01t10:00:00z") == .number("809949600"))
    }

    @Test func offsetsAreApplied() throws {
        #expect(try converted("2026-09-01T12:00:00+02:00") == .number("809949600"))
        #expect(try converted("2026-09-01T05:30:00-04:30") == .number("809949600"))
    }

    @Test func fractionsAndDatesBefore2001() throws {
        #expect(try converted("2001-01-01T00:00:00.5Z") == .number("0.5"))
        #expect(try converted("2001-01-01T00:00:00.000Z") == .number("0"))
        #expect(try converted("2000-12-31T23:59:59.5Z") == .number("-0.5"))
        #expect(try converted("1970-01-01T00:00:00Z") == .number("-978307200"))
    }

    @Test func leapDaysAndLeapSecondsAreHandled() throws {
        #expect(try converted("2024-02-29T00:00:00Z") == .number("730857600"))
        #expect(try converted("2016-12-31T23:59:60Z") == .number("504921600"))
        #expect(try converted("2025-02-29T00:00:00Z") == nil)
    }

    @Test func textThatIsNotRFC3339IsRejected() throws {
        for text in ["2026-09-01", "2026-09-01T10:00Z", "2026-09-01 10:00:00Z", "2026-09-01T10:00:00", "2026-09-01T10:00:00+2:00", "2026-09-01T10:00:00.Z", "2026-13-01T10:00:00Z"] {
            #expect(try converted(text) == nil, "\(text)")
        }
    }
}
