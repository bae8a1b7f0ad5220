import Registry
import Testing

@Suite struct ClientTextTests {
    @Test func shortTextIsQuotedWhole() {
        #expect(ClientText.quoted("Café") == #""Café""#)
        #expect(ClientText.shown("12") == "12")
    }

    @Test func longTextShowsItsFirst128BytesAndItsLength() {
        let text = String(repeating: "a", count: 1_000_000)
        #expect(ClientText.quoted(text) == "\"" + String(repeating: "a", count: 128) + "\"… (1,000,000 bytes)")
        #expect(ClientText.shown(String(repeating: "9", count: 1000)) == String(repeating: "9", count: 128) + "… (1,000 bytes)")
    }

    @Test func theCutNeverSplitsAScalar() {
        let text = "a" + String(repeating: "é", count: 200)  // 1 + 400 bytes
        let shown = ClientText.shown(text)
        #expect(shown == "a" + String(repeating: "é", count: 63) + "… (401 bytes)")
    }
}
