import Foundation
import Registry
import Testing
import TestSupport

/// Runs the parser over every file of JSONTestSuite's `test_parsing` corpus: `y_` files must
/// parse, `n_` files must be rejected, `i_` files may go either way but must not crash.
@Suite struct JSONTestSuiteTests {
    static let corpus: [URL] = {
        let dir = TestPaths.shared.appendingPathComponent("data/JSONTestSuite/test_parsing")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
    }()

    /// Deep corpus files (n_structure_100000_opening_arrays) must fail on the depth limit, not the stack.
    static func parse(_ url: URL) throws(JSONParseError) -> JSONValue {
        let data = (try? Data(contentsOf: url)) ?? Data()
        return try JSONParser.parse([UInt8](data), options: .init(maxDepth: 512))
    }

    @Test func corpusIsPresent() {
        #expect(Self.corpus.count > 300, "JSONTestSuite corpus not found under \(TestPaths.shared.path)")
    }

    @Test func acceptsEveryYesFile() {
        for url in Self.corpus where url.lastPathComponent.hasPrefix("y_") {
            #expect(throws: Never.self, "\(url.lastPathComponent)") { try Self.parse(url) }
        }
    }

    @Test func rejectsEveryNoFile() {
        for url in Self.corpus where url.lastPathComponent.hasPrefix("n_") {
            #expect(throws: JSONParseError.self, "\(url.lastPathComponent)") { try Self.parse(url) }
        }
    }

    @Test func survivesEveryImplementationDefinedFile() {
        for url in Self.corpus where url.lastPathComponent.hasPrefix("i_") {
            _ = try? Self.parse(url)
        }
    }
}
