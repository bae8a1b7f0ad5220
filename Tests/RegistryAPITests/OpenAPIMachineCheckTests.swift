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

    /// The block of the component schema or parameter `name` (its lines up to the next one).
    static func block(_ name: String, in text: String) throws -> String {
        let start = try #require(text.range(of: "\n    \(name):\n"), "\(name)")
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n    [A-Za-z]", options: .regularExpression)?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Both spellings of one body field are a 400, so each request schema must forbid them
    /// together (`not: {required: [a, b]}`, or a `oneOf` requiring exactly one), or a fuzzer's
    /// valid request may send both.
    @Test func bothSpellingsOfEveryBodyFieldAreForbiddenTogether() throws {
        let text = try Self.text()
        var pairs = 0
        for schema in ["PublishRequest", "CheckRequest", "PreviewRequest", "PolicyRequest"] {
            let block = try Self.block(schema, in: text)
            let properties = block.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("        "), !line.hasPrefix("         "), line.hasSuffix(":") else { return nil }
                return String(line.dropFirst(8).dropLast())
            }
            for camel in properties where camel.contains(where: \.isUppercase) {
                let snake = camel.reduce(into: "") { out, character in
                    out += character.isUppercase ? "_" + character.lowercased() : String(character)
                }
                guard properties.contains(snake) || block.contains("`\(snake)`") else { continue }
                pairs += 1
                let together = block.contains("required: [\(camel), \(snake)]") || block.contains("required: [\(snake), \(camel)]")
                let exactlyOne = block.contains("- required: [\(camel)]") && block.contains("- required: [\(snake)]")
                #expect(together || exactlyOne, "\(schema): \(camel) and \(snake) may be sent together")
            }
        }
        #expect(pairs >= 8, "checked \(pairs) pairs of spellings")
    }

    /// The API refuses NUL in every string it reads; the contract says so for the names a
    /// fuzzer sends (the application, the bundle id).
    @Test func applicationAndBundleIDExcludeNUL() throws {
        let text = try Self.text()
        let nul = "pattern: '^[^\\u0000]+$'"
        for parameter in ["ApplicationPath", "Application"] {
            #expect(try Self.block(parameter, in: text).contains(nul), "\(parameter)")
        }
        let preview = try Self.block("PreviewRequest", in: text)
        for field in ["application", "bundle_id", "bundleId"] {
            let start = try #require(preview.range(of: "\n        \(field):\n"))
            #expect(preview[start.upperBound...].prefix(200).contains(nul), "PreviewRequest.\(field)")
        }
        #expect(try Self.block("PublishRequest", in: text).contains(nul))
        #expect(try Self.block("CheckRequest", in: text).contains(nul))
    }

    /// Opaque tokens are written in the base64url alphabet; the contract states it, so a
    /// fuzzer's tokens are at least of that alphabet.
    @Test func pageTokensAndCursorsHaveTheirAlphabet() throws {
        let text = try Self.text()
        let block = try Self.block("PageToken", in: text)
        let line = try #require(block.split(separator: "\n").first { $0.contains("pattern:") })
        let regex = try Regex(String(line.split(separator: "'")[1]))
        for issued in ["", "djE6MTpGbGlnaHQ", "YTE6MTIz", "now", "Yz-_"] { #expect(issued.wholeMatch(of: regex) != nil, "\(issued)") }
        for refused in ["a b", "a+b", "YTE6MTIz==", "é", "a\u{0}"] { #expect(refused.wholeMatch(of: regex) == nil, "\(refused)") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var tokens = 0
        for (index, line) in lines.enumerated() where line.hasSuffix("- name: pageToken") {
            tokens += 1
            let parameter = lines[index..<min(index + 12, lines.count)].joined(separator: "\n")
            #expect(parameter.contains("$ref: '#/components/schemas/PageToken'"), "\(parameter)")
        }
        #expect(tokens == 5)
        let after = try #require(text.range(of: "- name: after\n"))
        #expect(text[after.upperBound...].prefix(400).contains("pattern: '^[A-Za-z0-9_-]*$'"))
    }
}

