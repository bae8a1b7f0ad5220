import Testing

@testable import RegistryAPI

/// Paths are matched as bytes: U+212A (Kelvin sign) is canonically equivalent to `K`, so
/// Swift's `==` and `hasSuffix` would take it for the literal or the action it is not.
@Suite struct RouterTests {
    @Test func literalsAndActionsMatchByBytes() {
        let template = PathTemplate("/K/{id}:K")
        #expect(template.match(["K", "7:K"]) == ["id": "7"])
        #expect("\u{212A}" == "K", "the trap: Swift calls them equal")
        #expect(template.match(["\u{212A}", "7:K"]) == nil)
        #expect(template.match(["K", "7:\u{212A}"]) == nil)
        // A parameter keeps its bytes as sent.
        let decomposed = PathTemplate("/{name}").match(["Cafe\u{301}"])?["name"]
        #expect(decomposed?.utf8.elementsEqual("Cafe\u{301}".utf8) == true)
    }
}
