@testable import Registry
import Testing

/// The export document survives writing and reading unchanged, texts byte for byte.
@Suite struct ApplicationExportTests {
    @Test func anExportReadBackFromItsJSONTextIsTheSameDocument() throws {
        let document = ApplicationExport(
            application: "ACME1-TEST2",
            types: [
                .init(
                    attributesType: "Caf\u{E9}Attributes", lastVersion: 9,
                    versions: [
                        .init(version: 1, jsonSchema: " {\"a\" :\t1}\n", created: "2026-09-01T10:00:00.123456Z", createdBy: "ci"),
                        .init(version: 4, jsonSchema: "{\"b\":\"Cafe\u{301} \\u00e9\"}", created: "2026-09-02T10:00:00.000000Z", createdBy: nil),
                    ],
                    retired: [2, 3, 9]),
                .init(attributesType: "Cafe\u{301}Attributes", lastVersion: 1, versions: [], retired: [1]),
            ],
            policies: [.init(attributesType: "", mode: "backward", enforce: "reject", oldestSupportedVersion: 2)])
        let text = JSONPrettyWriter.string(document.json)
        let read = try ApplicationExport(json: JSONParser.parse(text))
        #expect(read == document)
        let texts = read.types.flatMap(\.versions).map { Array($0.jsonSchema.utf8) }
        #expect(texts == document.types.flatMap(\.versions).map { Array($0.jsonSchema.utf8) })
        // Canonically equivalent type names are two types, as in the database.
        #expect(read.types.count == 2)
    }

    /// Creation times are read back only in the one form exports write.
    @Test(arguments: [
        ("2026-09-01T10:00:00Z", true), ("2026-09-01T10:00:00.5Z", true), ("2026-09-01T10:00:00.123456Z", true),
        ("2026-09-01T10:00:00.1234567Z", false), ("2026-09-01T10:00:00.Z", false), ("2026-09-01T10:00:00", false),
        ("2026-09-01 10:00:00Z", false), ("2026-9-01T10:00:00Z", false), ("2026-09-01T10:00:00+02:00", false),
        ("２026-09-01T10:00:00Z", false), ("", false),
    ])
    func creationTimesMustBeUTCWithAtMostSixFractionDigits(text: String, accepted: Bool) {
        #expect(ApplicationExport.isUTCTime(text) == accepted, "\(text)")
    }
}
