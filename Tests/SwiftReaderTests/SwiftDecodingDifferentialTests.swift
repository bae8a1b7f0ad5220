import Foundation
import Registry
import SwiftReader
import TestSupport
import Testing

/// The registry's promise, checked against the real Swift runtime: a value the checker calls
/// valid decodes with `JSONDecoder` into the Swift type `schema-from-swift` read, and a value it
/// refuses does not. The fixture types in `Fixtures/Swift/DecodingShapes/` (read as one
/// directory, so types from another file resolve) are compiled with the machine's `swiftc` into
/// one program; values are generated from each schema (valid ones and near-misses), checked with
/// `PushValueChecker`, and the checker's converted values (RFC 3339 dates become seconds) are
/// decoded by that program, because that is what the device receives.
@Suite struct SwiftDecodingDifferentialTests {
    static let attributesTypes = ["DeliveryAttributes", "CounterAttributes", "MatchAttributes", "ParkingAttributes"]

    /// Where the registry is stricter than the decoder on purpose, and the outcome it expects:
    /// an empty required attribute is refused at start (the contract says so), and a range is
    /// the two bounds Codable writes, though `JSONDecoder` ignores a third item.
    static let intendedRefusals: Set<String> = ["intended: empty required attribute at start", "intended: range with 3 items"]

    struct Case {
        var typeName: String
        var part: String
        var category: String
        var value: JSONObject
        var check: PushValueCheck
    }

    @Test func checkerAgreesWithJSONDecoderOnEveryGeneratedValue() throws {
        let directory = TestPaths.fixture("Swift/DecodingShapes")
        let sources = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { directory.appendingPathComponent($0) }
        #expect(sources.count == 5, "fixture files: \(sources.map(\.lastPathComponent))")
        let files = try sources.map { SwiftSourceFile(path: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8)) }

        var cases: [Case] = []
        for typeName in Self.attributesTypes {
            let schemaText = JSONWriter.string(try SwiftSchemaReader.schema(fromSwiftFiles: files, typeName: typeName))
            let document = try SchemaRules.validate(schemaText)
            cases += Self.cases(for: typeName, document: document)
        }

        let decoders = Self.attributesTypes.flatMap { [("\($0) content-state", "\($0).ContentState"), ("\($0) attributes", $0)] }
        let program = try SwiftDecodingProgram.build(sources: sources, decoders: decoders)
        defer { program.remove() }
        let inputs = cases.map { testCase in
            let sent: JSONObject = testCase.part == "attributes" ? (testCase.check.attributes ?? testCase.value) : testCase.check.contentState
            return SwiftDecodingProgram.Input(decoder: "\(testCase.typeName) \(testCase.part)", json: JSONWriter.string(.object(sent)))
        }
        let decoded = try program.decode(inputs)

        var checked = 0
        var bothDecode = 0
        var bothRefuse = 0
        var disagreements: [String: Int] = [:]
        var examples: [String: String] = [:]
        for (testCase, outcome) in zip(cases, decoded) {
            checked += 1
            let intended = Self.intendedRefusals.contains(testCase.category)
            let agrees = intended ? (!testCase.check.valid && outcome.decoded) : (testCase.check.valid == outcome.decoded)
            guard !agrees else {
                if outcome.decoded && testCase.check.valid { bothDecode += 1 } else { bothRefuse += 1 }
                continue
            }
            let direction = testCase.check.valid ? "checker valid, decoder fails" : "checker refuses, decoder decodes"
            let key = "\(testCase.category) — \(direction)"
            disagreements[key, default: 0] += 1
            if examples[key] == nil {
                let problems = testCase.check.problems.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
                examples[key] = "\(testCase.typeName) \(testCase.part) \(JSONWriter.string(.object(testCase.value))) — checker: \(problems.isEmpty ? "no problems" : problems) — decoder: \(outcome.decoded ? "decoded" : outcome.error)"
            }
        }
        #expect(checked == cases.count, "every generated value was checked and decoded")
        #expect(cases.count >= 300, "generated \(cases.count) values")
        let categories = Dictionary(grouping: cases, by: \.category).mapValues(\.count)
        #expect(categories.count >= 40, "categories: \(categories.keys.sorted())")
        let report = disagreements.sorted { $0.key < $1.key }
            .map { "\($0.value) × \($0.key)\n    e.g. \(examples[$0.key]!)" }.joined(separator: "\n")
        let disagreeing = disagreements.values.reduce(0, +)
        #expect(bothDecode >= 200, "valid for both: \(bothDecode)")
        #expect(
            disagreeing == 0,
            "\(disagreeing) of \(checked) values: the checker and JSONDecoder disagree (\(bothDecode) valid and decoded, \(bothRefuse) refused by both or refused on purpose)\n\(report)")
    }

    /// Content-state values checked as an update, attribute values as a start with the
    /// canonical content state.
    static func cases(for typeName: String, document: SchemaDocument) -> [Case] {
        let generator = SchemaValueGenerator(definitions: document.root["$defs"]?.objectValue ?? [:])
        var content: JSONObject = ["type": "object", "properties": .object(document.contentProperties)]
        content["required"] = document.root["required"]
        let attributesSchema = document.root["attributes"]!.objectValue!
        var attributes: JSONObject = ["type": "object", "properties": attributesSchema["properties"]!]
        attributes["required"] = attributesSchema["required"]

        var cases: [Case] = []
        let contentValues = generator.members(content)
        let canonicalContent = contentValues.valid[0].value.objectValue!
        for value in contentValues.valid + contentValues.nearMisses {
            let object = value.value.objectValue!
            let check = PushValueChecker.check(document, event: .update, contentState: object, attributes: nil)
            cases.append(Case(typeName: typeName, part: "content-state", category: value.category, value: object, check: check))
        }
        let required = (attributesSchema["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        let attributeValues = generator.members(attributes)
        for value in attributeValues.valid + attributeValues.nearMisses {
            let object = value.value.objectValue!
            // Only where "" is otherwise a valid value: an empty URL is a near-miss either way.
            let emptyRequired = value.category.hasPrefix("valid") && required.contains { object[$0] == .string("") }
            let check = PushValueChecker.check(document, event: .start, contentState: canonicalContent, attributes: object)
            cases.append(
                Case(
                    typeName: typeName, part: "attributes",
                    category: emptyRequired ? "intended: empty required attribute at start" : value.category, value: object,
                    check: check))
        }
        return cases
    }
}
