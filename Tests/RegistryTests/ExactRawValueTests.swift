import Registry
import Testing

/// Words a client sends (event names, policy modes, type names, scopes) match a case by bytes,
/// never by Swift's canonical equivalence.
@Suite struct ExactRawValueTests {
    enum Temperature: String, CaseIterable {
        case kelvin = "K"
    }

    @Test func aCanonicallyEquivalentSpellingIsNotTheSameWord() {
        #expect(Temperature(rawValue: "\u{212A}") == .kelvin, "Swift's own lookup takes KELVIN SIGN for K")
        #expect(Temperature(exactly: "\u{212A}") == nil)
        #expect(Temperature(exactly: "K") == .kelvin)
    }

    @Test func theServicesWordsAreFoundByTheirBytes() {
        #expect(LiveActivityEvent(exactly: "update") == .update)
        #expect(CompatibilityPolicy.Mode(exactly: "backward") == .backward)
        #expect(TokenScope(exactly: "admin") == .admin)
        #expect(TokenScope(exactly: "Admin") == nil)
    }
}
