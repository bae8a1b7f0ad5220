import Registry
import Testing

@Suite struct JSONParserTests {
    @Test func keepsObjectKeysInTextOrder() throws {
        let value = try JSONParser.parse(#"{"zeta":1,"alpha":2,"mid":3}"#)
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
    }

    @Test func keepsNumberLexemesVerbatim() throws {
        let value = try JSONParser.parse(#"[1.50, -0, 1e400, 12345678901234567890]"#)
        #expect(JSONWriter.string(value) == "[1.50,-0,1e400,12345678901234567890]")
    }

    @Test func acceptsSixtyFourNestedContainersAndRejectsSixtyFive() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        _ = try JSONParser.parse(ok)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
    }

    @Test func depthErrorNamesTheLocation() {
        let text = #"{"a":{"b":[[{}]]}}"#
        #expect {
            try JSONParser.parse(text, options: .init(maxDepth: 4))
        } throws: { error in
            (error as? JSONParseError)?.path == "a.b[0][0]"
        }
    }

    @Test func duplicateKeysAreRejectedOnlyWhenAsked() throws {
        let text = #"{"properties":{"gate":{},"gate":{}}}"#
        _ = try JSONParser.parse(text)
        #expect {
            try JSONParser.parse(text, options: .init(rejectDuplicateKeys: true))
        } throws: { error in
            let e = error as? JSONParseError
            return e?.path == "properties.gate" && e?.message.contains("duplicate key \"gate\"") == true
        }
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\né\u{1F600}"))
    }

    @Test func rejectsLoneSurrogatesAndInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\ud800""#) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) }
    }

    @Test func rejectsTrailingData() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{} {}") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[1,]") }
    }
}

@Suite struct JSONWriterTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let text = JSONWriter.string(.string("q\"b\\n\n\t\u{01}\u{7F}"))
        #expect(text == #""q\"b\\n\n\t\u0001\u007f""#)
    }

    @Test func keepsNonASCIIAsIs() {
        #expect(JSONWriter.string(.string("ফ্লাইট ✈︎ é")) == "\"ফ্লাইট ✈︎ é\"")
    }

    @Test func roundTripsThroughTheParser() throws {
        let text = #"{"b":[true,false,null,{"x":"y"}],"a":-1.5e-3,"c":"\u0000"}"#
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(JSONWriter.string(value)) == value)
    }
}
