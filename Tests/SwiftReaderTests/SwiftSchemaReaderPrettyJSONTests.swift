import Registry
import SwiftReader
import Testing

/// `JSONPrettyWriter`, which prints generated schemas for people to review.
@Suite struct SwiftSchemaReaderPrettyJSONTests {
    @Test func objectsIndentTwoSpacesPerLevelAndKeepKeyOrder() {
        let value: JSONValue = ["zeta": ["b": 1, "a": true], "alpha": nil]
        #expect(JSONPrettyWriter.string(value) == """
            {
              "zeta": {
                "b": 1,
                "a": true
              },
              "alpha": null
            }
            """)
    }

    @Test func emptyContainersStayOnOneLine() {
        #expect(JSONPrettyWriter.string(["properties": [:], "required": []]) == """
            {
              "properties": {},
              "required": []
            }
            """)
    }

    @Test func arraysOfScalarsStayOnOneLineAndArraysWithContainersDoNot() {
        let value: JSONValue = ["type": ["string", "null"], "anyOf": [["type": "null"], 1]]
        #expect(JSONPrettyWriter.string(value) == """
            {
              "type": ["string", "null"],
              "anyOf": [
                {
                  "type": "null"
                },
                1
              ]
            }
            """)
    }

    @Test func scalarsAreWrittenAsTheCompactWriterWritesThem() {
        let value: JSONValue = ["a\"b": .string("line\nbreak\u{1}"), "n": .number("1.50")]
        #expect(JSONPrettyWriter.string(value) == #"""
            {
              "a\"b": "line\nbreak\u0001",
              "n": 1.50
            }
            """#)
        #expect(JSONPrettyWriter.string(.number("-0")) == "-0")
    }

    @Test func prettyTextParsesBackToTheSameValue() throws {
        let schema = try SwiftSchemaReader.schema(
            fromSwiftSource: attributesSource(contentState: "var tags: [String]?\nvar nested: [[String: Int]]"), typeName: "A")
        #expect(try JSONParser.parse(JSONPrettyWriter.string(schema)) == schema)
    }
}
