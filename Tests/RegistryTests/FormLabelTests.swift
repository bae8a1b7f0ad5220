import Registry
import Testing

/// How names become labels when the schema gives no `title` (the rules are documented on the
/// form builder's humaniser).
@Suite struct FormLabelTests {
    private func label(_ name: String) throws -> String {
        let form = try FormFixture.form(#"{"type":"object","properties":{\#(JSONWriter.string(.string(name))):{}}}"#)
        return try #require(form.content.fields.first).label
    }

    @Test(arguments: [
        ("estimatedTime", "Estimated time"),
        ("flight_number", "Flight number"),
        ("ETA", "ETA"),
    ])
    func specExamplesAreHumanisedAsTheSpecShows(name: String, expected: String) throws {
        #expect(try label(name) == expected)
    }

    @Test(arguments: [
        ("gateID", "Gate ID"),
        ("gateIDs", "Gate IDs"),
        ("URLString", "URL string"),
        ("homeURL", "Home URL"),
        ("ETAs", "ETAs"),
        ("pointX", "Point X"),
    ])
    func wordsInCapitalsKeepTheirCapitals(name: String, expected: String) throws {
        #expect(try label(name) == expected)
    }

    /// People write these in capitals whatever case the key uses.
    @Test(arguments: [
        ("etaMinutes", "ETA minutes"),
        ("trackingUrl", "Tracking URL"),
        ("driverIds", "Driver IDs"),
        ("eta", "ETA"),
        ("orderId", "Order ID"),
        ("idea", "Idea"),
        ("urlscheme", "Urlscheme"),
    ])
    func knownAcronymsAreWrittenInCapitals(name: String, expected: String) throws {
        #expect(try label(name) == expected)
    }

    @Test(arguments: [
        ("homeTeamScore", "Home team score"),
        ("HomeTeam", "Home team"),
        ("thisIs", "This is"),
        ("x", "X"),
    ])
    func camelCaseWordsAreLowercasedAfterTheFirst(name: String, expected: String) throws {
        #expect(try label(name) == expected)
    }

    @Test(arguments: [
        ("line2", "Line 2"),
        ("leg2Gate", "Leg 2 gate"),
        ("2ndLeg", "2nd leg"),
        ("seat12A", "Seat 12 A"),
    ])
    func digitsFormTheirOwnWordAfterLetters(name: String, expected: String) throws {
        #expect(try label(name) == expected)
    }

    @Test(arguments: [
        ("departure-gate", "Departure gate"),
        ("departure.gate", "Departure gate"),
        ("departure gate", "Departure gate"),
        ("__private_note__", "Private note"),
        ("FLIGHT_NUMBER", "FLIGHT NUMBER"),
    ])
    func separatorsSplitWordsAndAreDropped(name: String, expected: String) throws {
        #expect(try label(name) == expected)
    }

    @Test func nonAsciiLettersFollowTheSameRules() throws {
        #expect(try label("heureDépart") == "Heure départ")
        #expect(try label("étatVol") == "État vol")
    }

    @Test func nameWithoutWordsIsItsOwnLabel() throws {
        #expect(try label("__") == "__")
        #expect(try label("") == "")
    }
}
