import Registry
import Testing

/// The form of a 64 KB schema should cost less than three parses of its text. Timing is printed,
/// never asserted: test machines are shared and debug builds are not what is measured.
@Suite struct FormPerformanceTests {
    /// A schema just under 64 KB mixing every kind of field, nested objects and `$ref`s.
    private static let schema: String = {
        let kinds = [
            #""gate%d":{"type":"string","title":"Gate","description":"Where passengers board","maxLength":12}"#,
            #""status%d":{"type":"string","enum":["on_time","delayed","boarding","cancelled"]}"#,
            #""estimatedTime%d":{"type":"number","x-swift-type":"Date","format":"date-time"}"#,
            ##""leg%d":{"type":"object","properties":{"from":{"$ref":"#/$defs/Airport"},"to":{"$ref":"#/$defs/Airport"},"seats":{"type":"array","items":{"type":"integer","minimum":1}}},"required":["from"]}"##,
            #""delayMinutes%d":{"type":["integer","null"],"minimum":0,"default":0}"#,
            #""note%d":{"type":"string","format":"textarea"}"#,
        ]
        let head = ##"{"type":"object","$defs":{"Airport":{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"},"name":{"type":"string"}}}},"properties":{"##
        var fields: [String] = []
        var size = head.utf8.count + 2
        while true {
            let field = kinds[fields.count % kinds.count].replacing("%d", with: String(fields.count))
            guard size + field.utf8.count + 1 <= SchemaRules.maxSchemaBytes else { break }
            fields.append(field)
            size += field.utf8.count + 1
        }
        return head + fields.joined(separator: ",") + "}}"
    }()

    @Test func sixtyFourKilobyteSchemaGivesACompleteFormAndPrintsItsCostAgainstParsing() throws {
        let document = try SchemaRules.validate(Self.schema)
        let parse = Self.fastest { _ = try? JSONParser.parse(Self.schema) }
        var body: [UInt8] = []
        let build = Self.fastest {
            body.removeAll()
            FormWriter.write(formOf: document, application: "A", attributesType: "T", version: 1, into: &body)
        }
        #expect(!body.isEmpty)
        #expect(FormBuilder.form(for: document).content.fields.count == document.contentProperties.count)
        print(
            "form of \(Self.schema.utf8.count) bytes: parse \(parse), form \(build), ratio \(build / parse)"
        )
    }

    private static func fastest(_ body: () -> Void) -> Duration {
        (0..<20).map { _ in ContinuousClock().measure(body) }.min()!
    }
}
