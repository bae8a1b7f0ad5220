import Foundation
import Testing
import TestSupport

/// What `openapi.yaml` states must be what a contract-driven fuzzer can rely on: a request it
/// generates as valid from the document is valid (Tests/Robustness/schemathesis.sh runs one).
@Suite struct OpenAPIMachineCheckTests {
    static func text() throws -> String {
        try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    }

    /// `pageSize` and `page_size` are one parameter: listing both lets a fuzzer send both,
    /// which is a 400 by design. The alias is named in the parameter's description instead.
    @Test func eachQueryParameterIsDocumentedUnderOneSpelling() throws {
        let lines = try Self.text().split(separator: "\n").map { String($0) }
        var names: [String] = []
        for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("- name: ") {
            guard index + 1 < lines.count, lines[index + 1].trimmingCharacters(in: .whitespaces) == "in: query" else { continue }
            names.append(String(line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)))
        }
        #expect(names.count >= 3, "found the query parameters: \(names)")
        var byNormalisedName: [String: [String]] = [:]
        for name in names { byNormalisedName[name.lowercased().replacing("_", with: ""), default: []].append(name) }
        for (_, spellings) in byNormalisedName where Set(spellings).count > 1 {
            Issue.record("one query parameter documented under several spellings: \(spellings)")
        }
    }

    @Test func jsonSchemaTextMustStartWithABraceAndThePatternSpansTheWholeText() throws {
        let text = try Self.text()
        let start = try #require(text.range(of: "    JSONSchemaText:\n"))
        let block = text[start.upperBound...].split(separator: "\n\n", maxSplits: 1).first ?? ""
        let pattern = try #require(block.split(separator: "\n").first { $0.contains("pattern:") }, "\(block)")
        let regex = try Regex(String(pattern.split(separator: "'")[1]))
        for accepted in [#"{"type":"object"}"#, " \n{}", "{not json yet"] {
            #expect(accepted.wholeMatch(of: regex) != nil, "\(accepted)")
        }
        for refused in ["[]", "\"{}\"", "x{", "null"] {
            #expect(refused.wholeMatch(of: regex) == nil, "\(refused)")
        }
    }
}
