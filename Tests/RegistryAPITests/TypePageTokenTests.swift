@testable import RegistryAPI
import Registry
import Testing

/// Type-index page tokens carry the last name byte for byte, and only tokens of this index
/// are accepted.
@Suite struct TypePageTokenTests {
    @Test func namesRoundTripByteForByteEvenWithALeadingCombiningMark() throws {
        for name in ["Flight", "\u{301}Accent", "Cafe\u{301}", "a:b:c", "\u{10FFFF}"] {
            let decoded = try TypePageToken.decode(TypePageToken.encode(name))
            #expect(Array(decoded.utf8) == Array(name.utf8))
        }
    }

    @Test func listTokensAndOtherTextAreRefused() {
        let listToken = PageToken.encode(ListCursor(attributesType: "Flight", version: 2))
        for token in [listToken, "", "!", Base64URL.encode(Array("t1:".utf8)), Base64URL.encode(Array("t1:a/b".utf8))] {
            #expect(throws: RegistryError.self) { try TypePageToken.decode(token) }
        }
    }
}
