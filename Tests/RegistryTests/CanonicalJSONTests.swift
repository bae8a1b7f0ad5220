import Registry
import Testing

/// Content identity: whitespace outside strings is insignificant, everything else is as written.
@Suite struct CanonicalJSONTests {
    static let cases: [(text: String, canonical: String)] = [
        (#"{ "a" : 1 }"#, #"{"a":1}"#),
        ("{\n\t\"a\":\r\n [1, 2]\n}", #"{"a":[1,2]}"#),
        (#"{"a b":"c  d"}"#, #"{"a b":"c  d"}"#),
        (#"{"a":"quote \" inside  "}"#, #"{"a":"quote \" inside  "}"#),
        (#"{"a":"backslash \\"  , "b" : 2}"#, #"{"a":"backslash \\","b":2}"#),
        (#"{"a":"\\\" still inside "}"#, #"{"a":"\\\" still inside "}"#),
        (#"[ 1.50 , 1e3 , -0 ]"#, #"[1.50,1e3,-0]"#),
        ("{\"é\" : \"\u{00A0}non-breaking space kept\" }", "{\"é\":\"\u{00A0}non-breaking space kept\"}"),
        (" \u{00A0}1", "\u{00A0}1"),
    ]

    @Test func removesWhitespaceOutsideStringsAndKeepsEverythingElse() {
        for (text, canonical) in Self.cases {
            #expect(CanonicalJSON.canonicalBytes(text) == Array(canonical.utf8), "\(text)")
        }
    }

    @Test func keyOrderAndNumberSpellingsAreDifferentContent() {
        #expect(CanonicalJSON.contentHash(#"{"a":1,"b":2}"#) != CanonicalJSON.contentHash(#"{"b":2,"a":1}"#))
        #expect(CanonicalJSON.contentHash(#"{"a":1}"#) != CanonicalJSON.contentHash(#"{"a":1.0}"#))
        #expect(CanonicalJSON.contentHash(#"{"a":"\u00e9"}"#) != CanonicalJSON.contentHash(#"{"a":"é"}"#))
        #expect(CanonicalJSON.contentHash("{ \"a\" :1}") == CanonicalJSON.contentHash(#"{"a":1}"#))
    }
}
