import Foundation
import Registry
import Testing

/// One file of the official JSON-Schema-Test-Suite: groups of a schema and the values it must
/// accept or refuse. Loading fails the test (never skips) when the file is missing or unparsable.
/// Shared by the domain tests (`CompiledSchema` directly) and the API tests (over HTTP).
public struct OfficialSuiteFile: Sendable {
    public struct Group: Sendable {
        public let description: String
        public let schema: JSONValue
        public let cases: [Case]
    }

    public struct Case: Sendable {
        public let description: String
        public let data: JSONValue
        public let valid: Bool
    }

    public let name: String
    public let groups: [Group]

    public var caseCount: Int { groups.reduce(0) { $0 + $1.cases.count } }

    /// `relativePath` under `tests/` of the suite, e.g. `draft2020-12/pattern.json`.
    public init(_ relativePath: String) throws {
        name = relativePath
        let url = TestPaths.shared.appendingPathComponent("data/JSON-Schema-Test-Suite/tests").appendingPathComponent(relativePath)
        let bytes = try [UInt8](Data(contentsOf: url))
        let root = try JSONParser.parse(bytes)
        let groups = try #require(root.arrayValue, "\(relativePath) is not an array of groups")
        self.groups = try groups.map { group in
            let tests = try #require(group["tests"]?.arrayValue, "\(relativePath): a group without tests")
            return Group(
                description: group["description"]?.stringValue ?? "",
                schema: try #require(group["schema"], "\(relativePath): a group without a schema"),
                cases: try tests.map { test in
                    Case(
                        description: test["description"]?.stringValue ?? "",
                        data: try #require(test["data"], "\(relativePath): a case without data"),
                        valid: try #require(test["valid"]?.boolValue, "\(relativePath): a case without valid"))
                })
        }
    }

    /// The files of one folder of the suite, e.g. `draft7/optional/format`, sorted by name.
    public static func folder(_ relativePath: String) throws -> [String] {
        let url = TestPaths.shared.appendingPathComponent("data/JSON-Schema-Test-Suite/tests").appendingPathComponent(relativePath)
        return try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "\(relativePath)/\($0)" }
    }
}
