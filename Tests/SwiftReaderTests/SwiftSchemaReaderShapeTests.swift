import Registry
import SwiftReader
import Testing

/// The coded forms beyond plain scalars and structs: ranges, enums in both of Codable's forms,
/// types Swift infers from initializer calls, and a target of several files. Each expected
/// shape was taken from what `JSONEncoder` writes for the same Swift (the differential test
/// checks them against `JSONDecoder`).
@Suite struct SwiftSchemaReaderShapeTests {
    static let int = #"{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}"#
    static let date = #"{"type":"number","format":"date-time","x-swift-type":"Date"}"#

    @Test func rangesAreTwoItemArraysOfTheirBound() throws {
        let properties = try contentProperties("var eta: ClosedRange<Date>\nvar window: Range<Int>\nvar maybe: Swift.ClosedRange<Double>?")
        let eta = #"{"type":"array","prefixItems":[\#(Self.date),\#(Self.date)],"minItems":2,"maxItems":2,"items":false,"x-swift-type":"ClosedRange"}"#
        let window = #"{"type":"array","prefixItems":[\#(Self.int),\#(Self.int)],"minItems":2,"maxItems":2,"items":false,"x-swift-type":"Range"}"#
        let maybe = #"{"type":["array","null"],"prefixItems":[{"type":"number"},{"type":"number"}],"minItems":2,"maxItems":2,"items":false,"x-swift-type":"ClosedRange"}"#
        #expect(properties == #"{"eta":\#(eta),"window":\#(window),"maybe":\#(maybe)}"#)
    }

    @Test func enumWithoutRawTypeIsOneOfSingleKeyObjects() throws {
        let properties = try contentProperties("var kind: Kind", declarations: "enum Kind: Codable, Hashable { case league, cup }")
        #expect(properties == #"{"kind":{"oneOf":[{"type":"object","properties":{"league":{"type":"object"}},"required":["league"],"additionalProperties":false},{"type":"object","properties":{"cup":{"type":"object"}},"required":["cup"],"additionalProperties":false}]}}"#)
    }

    @Test func associatedValuesAreKeyedByLabelOrPosition() throws {
        let properties = try contentProperties(
            "var event: Event?",
            declarations: "enum Event: Codable, Hashable { case card(String, red: Bool, _ at: Date? = nil), note(_ text: String) }")
        let card = #"{"type":"object","properties":{"card":{"type":"object","properties":{"_0":{"type":"string"},"red":{"type":"boolean"},"_2":{"type":["number","null"],"format":"date-time","x-swift-type":"Date"}},"required":["_0","red"]}},"required":["card"],"additionalProperties":false}"#
        let note = #"{"type":"object","properties":{"note":{"type":"object","properties":{"_0":{"type":"string"}},"required":["_0"]}},"required":["note"],"additionalProperties":false}"#
        #expect(properties == #"{"event":{"anyOf":[{"oneOf":[\#(card),\#(note)]},{"type":"null"}]}}"#)
    }

    @Test func characterRawValuesAreNotCodableSoTheCaseNameIsTheKey() throws {
        let properties = try contentProperties("var side: Side", declarations: #"enum Side: Character, Codable { case home = "H" }"#)
        #expect(properties == #"{"side":{"oneOf":[{"type":"object","properties":{"home":{"type":"object"}},"required":["home"],"additionalProperties":false}]}}"#)
    }

    @Test func floatingPointRawValuesCountOnFromIntegers() throws {
        let properties = try contentProperties(
            "var grade: Grade\nvar level: Level = .high",
            declarations: "enum Grade: Float, Codable { case one = 1, two, half = 0.5 }\nenum Level: Double, Codable { case low, high = -2.5 }")
        #expect(properties == #"{"grade":{"type":"number","enum":[1,2,0.5]},"level":{"type":"number","enum":[0,-2.5],"default":-2.5}}"#)
    }

    @Test func keyedEnumCaseWithoutValuesIsADefault() throws {
        let properties = try contentProperties("var kind = Kind.cup", declarations: "enum Kind: Codable { case league, cup }")
        #expect(properties.hasSuffix(#""default":{"cup":{}}}}"#))
    }

    @Test func typesAreInferredFromInitializerCalls() throws {
        let properties = try contentProperties("""
            var id = UUID()
            var home = URL(string: "https://example.com")!
            var maybe = URL(string: "https://example.com")
            var since = Date()
            var now = Date.now
            var leg = Leg(code: "A")
            var parsed = Int("42")
            var converted = Int(2.5)
            """, declarations: "struct Leg: Codable, Hashable { var code: String }")
        let uuid = #"{"type":"string","format":"uuid","x-swift-type":"UUID"}"#
        let url = #"{"type":"string","format":"uri","x-swift-type":"URL"}"#
        let optionalURL = #"{"type":["string","null"],"format":"uri","x-swift-type":"URL"}"#
        let leg = #"{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}"#
        #expect(properties == #"{"id":\#(uuid),"home":\#(url),"maybe":\#(optionalURL),"since":\#(Self.date),"now":\#(Self.date),"leg":\#(leg),"parsed":{"type":["integer","null"],"minimum":-9223372036854775808,"maximum":9223372036854775807},"converted":\#(Self.int)}"#)
    }

    @Test func aFunctionCallGivesNoType() {
        #expect(contentError("var leg = makeLeg()")?.message
            == "property 'leg' needs a type annotation: its type cannot be inferred from its initial value")
    }

    @Test func recursiveEnumIsRejected() {
        let failure = contentError("var tree: Tree", declarations: "indirect enum Tree: Codable { case leaf, node([Tree]) }")
        #expect(failure?.message == "enum 'A.Tree' contains itself; a recursive enum cannot be turned into a schema")
    }

    @Test func enumWithItsOwnCodingKeysIsRejected() {
        let failure = contentError(
            "var phase: Phase", declarations: "enum Phase: Codable { case waiting\n enum CodingKeys: String, CodingKey { case waiting = \"w\" } }")
        #expect(failure?.message == "enum 'A.Phase' declares its own coding keys; only the synthesized case and associated value names can be turned into a schema")
    }

    @Test func implicitRawValueAfterAFloatingPointOneIsRejected() {
        let failure = contentError("var grade: Grade", declarations: "enum Grade: Double, Codable { case half = 0.5, one }")
        #expect(failure?.message == "case 'one' in enum 'A.Grade' needs a raw value: the one before it is not an integer")
    }

    @Test func typesFromOtherFilesResolveAndExtensionsAddNestedTypes() throws {
        let files = [
            SwiftSourceFile(path: "Shared/Money.swift", text: "struct Money: Codable, Hashable { var cents: Int64 }\ntypealias Cents = Int64"),
            SwiftSourceFile(path: "Shared/Order+Stage.swift", text: "extension Order {\n    enum Stage: String, Codable { case placed, done }\n}"),
            SwiftSourceFile(
                path: "Widget/Order.swift",
                text: "struct Order: ActivityAttributes {\n    struct ContentState: Codable, Hashable {\n        var stage: Stage\n        var total: Money\n        var tip: Cents?\n    }\n}"),
        ]
        let schema = try SwiftSchemaReader.schema(fromSwiftFiles: files, typeName: "Order")
        let int64 = #""minimum":-9223372036854775808,"maximum":9223372036854775807"#
        #expect(JSONWriter.string(schema["properties"]!) == #"{"stage":{"type":"string","enum":["placed","done"]},"total":{"type":"object","properties":{"cents":{"type":"integer",\#(int64)}},"required":["cents"]},"tip":{"type":["integer","null"],\#(int64)}}"#)
    }

    @Test func errorsNameTheFileTheyAreIn() {
        let files = [
            SwiftSourceFile(path: "Widget/Order.swift", text: "struct Order: ActivityAttributes {\n    struct ContentState: Codable, Hashable { var tags: Tags }\n}"),
            SwiftSourceFile(path: "Shared/Tags.swift", text: "\n\ntypealias Tags = Set<String>"),
        ]
        #expect(failure(files, "Order")?.description == "Shared/Tags.swift: line 3: unsupported type 'Set<String>' for property 'tags'")
        let bad = SwiftSourceFile(path: "Bad.swift", text: "struct A {\n  var x: Int = \"\n}")
        #expect(failure([bad], "A")?.description == "Bad.swift: line 2: unterminated string literal")
        #expect(failure([bad, files[1]], "B")?.description == "Bad.swift: line 2: unterminated string literal")
        #expect(failure([files[1]], "B")?.description == "Shared/Tags.swift: line 1: no type named 'B' in the source")
        #expect(failure(files, "B")?.description == "line 1: no type named 'B' in the source")
    }

    private func failure(_ files: [SwiftSourceFile], _ typeName: String) -> SwiftSchemaError? {
        do {
            _ = try SwiftSchemaReader.schema(fromSwiftFiles: files, typeName: typeName)
            return nil
        } catch {
            return error
        }
    }

    private func contentError(_ body: String, declarations: String = "") -> SwiftSchemaError? {
        do {
            _ = try SwiftSchemaReader.schema(fromSwiftSource: attributesSource(contentState: body, declarations: declarations), typeName: "A")
            return nil
        } catch {
            return error
        }
    }
}
