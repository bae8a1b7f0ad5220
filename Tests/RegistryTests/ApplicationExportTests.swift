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

    /// Times that have the shape but do not exist, which PostgreSQL would refuse mid-import.
    @Test(arguments: [
        ("2026-02-28T10:00:00Z", true), ("2024-02-29T10:00:00Z", true), ("0001-01-01T00:00:00Z", true),
        ("2026-02-30T10:00:00Z", false), ("2026-02-29T10:00:00Z", false), ("0000-01-01T00:00:00Z", false),
        ("2026-13-01T10:00:00Z", false), ("2026-04-31T10:00:00Z", false), ("2026-09-01T24:00:00Z", false),
        ("2026-09-01T10:60:00Z", false),
    ])
    func creationTimesMustExist(text: String, accepted: Bool) {
        #expect(ApplicationExport.isPossibleTime(text) == accepted, "\(text)")
    }

    /// Every field an import writes passes the rule of the route that writes it, with the
    /// field's path in the 400.
    @Test(arguments: [
        (ApplicationExportTests.version(created: "2026-02-30T10:00:00Z"), "types[0].versions[0].created"),
        (ApplicationExportTests.version(created: "0000-01-01T00:00:00Z"), "types[0].versions[0].created"),
        (ApplicationExportTests.version(createdBy: .string(String(repeating: "x", count: 1 << 20))), "types[0].versions[0].created_by"),
        (ApplicationExportTests.version(createdBy: .string("ci\u{1}")), "types[0].versions[0].created_by"),
        (ApplicationExportTests.version(createdBy: .number("7")), "types[0].versions[0].created_by"),
        (ApplicationExportTests.policy(String(repeating: "T", count: 300)), "policies[0].attributes_type"),
        (ApplicationExportTests.policy("T\u{1}"), "policies[0].attributes_type"),
        (ApplicationExportTests.policy("a/b"), "policies[0].attributes_type"),
        (ApplicationExportTests.document(application: String(repeating: "A", count: 2 << 20)), "application"),
        (ApplicationExportTests.document(application: "A\u{0}B"), "application"),
        (ApplicationExportTests.document(application: ""), "application"),
    ])
    func aFieldTheAPIWouldRefuseIsRefusedNamingItsPath(json: JSONValue, path: String) {
        #expect(throws: RegistryError.self) { try ApplicationExport(json: json) }
        do {
            _ = try ApplicationExport(json: json)
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.hasPrefix(path + ":"), "\(error.message.prefix(200))")
        }
    }

    @Test func theAPIsOwnValuesAreAccepted() throws {
        let read = try ApplicationExport(json: Self.document(
            types: [Self.type(versions: [["version": 1, "json_schema": "{}", "created": "2024-02-29T10:00:00Z", "created_by": "ci pipeline"]])],
            policies: [["attributes_type": "", "mode": "none", "enforce": "warn", "oldest_supported_version": 1],
                       ["attributes_type": "T", "mode": "backward", "enforce": "reject", "oldest_supported_version": 1]]))
        #expect(read.types[0].versions[0].createdBy == "ci pipeline")
        #expect(read.policies.count == 2)
    }

    static func document(application: String = "A", types: [JSONValue] = [], policies: [JSONValue] = []) -> JSONValue {
        [
            "format": .string(ApplicationExport.format), "format_version": 1, "application": .string(application),
            "types": .array(types), "policies": .array(policies),
        ]
    }

    static func type(versions: [JSONValue]) -> JSONValue {
        ["attributes_type": "T", "last_version": 1, "versions": .array(versions), "retired": []]
    }

    static func version(created: String = "2026-01-01T00:00:00Z", createdBy: JSONValue = .null) -> JSONValue {
        document(types: [type(versions: [["version": 1, "json_schema": "{}", "created": .string(created), "created_by": createdBy]])])
    }

    static func policy(_ attributesType: String) -> JSONValue {
        document(policies: [["attributes_type": .string(attributesType), "mode": "none", "enforce": "warn", "oldest_supported_version": 1]])
    }
}
