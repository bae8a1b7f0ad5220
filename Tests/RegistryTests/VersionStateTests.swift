import Registry
import Testing

/// The rules of version states that need no database: which version `latest` names, what a
/// sunset and a message may be.
@Suite struct VersionStateTests {
    /// Every combination of a pin, a newest active and a newest deprecated version (each
    /// present or not): the pin wins, then the newest active, then the newest deprecated.
    @Test func latestIsThePinElseTheNewestActiveElseTheNewestDeprecated() {
        var checked = 0
        for pinned in [nil, 2] as [Int32?] {
            for active in [nil, 5] as [Int32?] {
                for deprecated in [nil, 9] as [Int32?] {
                    let candidates = LatestCandidates(pinned: pinned, newestActive: active, newestDeprecated: deprecated)
                    let expected: Int32? = pinned != nil ? pinned : active != nil ? active : deprecated
                    #expect(candidates.latest == expected, "\(candidates)")
                    checked += 1
                }
            }
        }
        #expect(checked == 8)
        // A newer deprecated version never beats an older active one.
        #expect(LatestCandidates(pinned: nil, newestActive: 1, newestDeprecated: 7).latest == 1)
    }

    @Test func aSunsetIsAnRFC3339DateTimeFrom1970() {
        let accepted = ["2027-03-01T00:00:00Z", "2027-03-01T00:00:00.5+02:00", "1970-01-01T00:00:00Z", "2028-02-29t12:00:00z"]
        let refused = ["2027-03-01", "2027-02-29T00:00:00Z", "1969-12-31T23:59:59Z", "next week", "", "2027-03-01T25:00:00Z",
                       "2027-03-01 00:00:00Z", "२०२७-03-01T00:00:00Z"]
        for text in accepted { #expect(StateChange.isSunset(text), "\(text)") }
        for text in refused { #expect(!StateChange.isSunset(text), "\(text)") }
    }

    @Test func aMessageIsPresentBoundedInBytesAndFreeOfControlCharacters() throws {
        try StateChange.validateText("use version 4\nit has the gate", field: "message")
        try StateChange.validateText(String(repeating: "é", count: 512), field: "message")
        for text in ["", String(repeating: "é", count: 513), "tab\there", "bell\u{7}", "del\u{7F}"] {
            #expect(throws: RegistryError.self) { try StateChange.validateText(text, field: "message") }
        }
    }

    @Test func theStateNamesAreTheDatabaseValues() {
        let deprecation = Deprecation(message: "m", sunset: nil, at: "t", atUnixSeconds: 0, sunsetHTTPDate: nil, by: "b")
        #expect(VersionState.active.name == "active" && !VersionState.active.isDisabled)
        #expect(VersionState.deprecated(deprecation).name == "deprecated" && VersionState.deprecated(deprecation).deprecation == deprecation)
        #expect(VersionState.disabled(Disablement(reason: "r", at: "t", by: "b")).isDisabled)
        #expect([StateChange.deprecate(message: "m", sunset: nil), .disable(reason: "r"), .restore].map(\.stateName) == ["deprecated", "disabled", "active"])
    }
}
