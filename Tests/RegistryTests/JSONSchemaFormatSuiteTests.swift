import Registry
import Testing
import TestSupport

/// Every case of the official suite's `optional/format/` files, for draft 2020-12 and draft 7,
/// run against `JSONSchemaFormat.check` (a non-string always passes, as format assertion says).
/// Each file's cases are counted: ran + skipped must equal what the file holds.
@Suite struct JSONSchemaFormatSuiteTests {
    /// Cases deliberately not run, with the reason, keyed by file name (either draft) and the
    /// case's string. None today: IDNA's tables are approximated from Unicode properties and
    /// blocks (see IDNARules) closely enough for every case the suite holds.
    static let skipped: [(file: String, data: String, reason: String)] = []

    /// The files' case counts, so a file that shrinks or fails to load cannot pass quietly.
    static let expectedCases = ["draft2020-12": 764, "draft7": 676]

    static func files() throws -> [String] {
        try OfficialSuiteFile.folder("draft2020-12/optional/format") + OfficialSuiteFile.folder("draft7/optional/format")
    }

    @Test func everyFormatFileIsThere() throws {
        #expect(try Self.files().count == 21 + 19)
    }

    @Test(arguments: ["draft2020-12", "draft7"])
    func everyCaseRuns(_ draft: String) throws {
        let files = try OfficialSuiteFile.folder("\(draft)/optional/format")
        let total = try files.reduce(0) { $0 + (try OfficialSuiteFile($1).caseCount) }
        #expect(total == Self.expectedCases[draft])
    }

    @Test(arguments: try files())
    func agreesWithTheSuite(_ path: String) throws {
        let suite = try OfficialSuiteFile(path)
        let fileName = String(path.split(separator: "/").last ?? "")
        var ran = 0, skipped = 0
        for group in suite.groups {
            let format = try #require(group.schema["format"]?.stringValue, "\(path): a group without format")
            for testCase in group.cases {
                guard case .string(let value) = testCase.data else {
                    #expect(testCase.valid, "\(path): a non-string must pass")
                    ran += 1
                    continue
                }
                if Self.skipped.contains(where: { $0.file.hasSameBytes(as: fileName) && $0.data.hasSameBytes(as: value) }) {
                    skipped += 1
                    continue
                }
                let verdict = JSONSchemaFormat.check(format, value) ?? true
                #expect(verdict == testCase.valid, "\(path): \(group.description) / \(testCase.description): \(value.debugDescription)")
                ran += 1
            }
        }
        #expect(ran + skipped == suite.caseCount, "\(path): \(ran) ran, \(skipped) skipped")
        #expect(suite.caseCount > 0)
    }
}
