import Foundation
import Registry
import Testing
import TestSupport

/// The official JSON-Schema-Test-Suite run through `CompiledSchema`: every case of every
/// mandatory file of draft 2020-12 and draft 7 must agree with the suite's `valid`, except
/// groups whose schema needs a document the registry would have to fetch, which must be
/// refused at compile time (and only those). Each test counts the cases it ran and fails when
/// fewer ran than the files hold.
@Suite struct JSONSchemaSuiteTests {
    static let tests = TestPaths.shared.appendingPathComponent("data/JSON-Schema-Test-Suite/tests")

    @Test func draft2020Mandatory() throws {
        let tally = try Self.run(folder: "draft2020-12", dialect: .draft2020_12)
        #expect(tally.files >= 46)
        #expect(tally.cases == 1_299, "cases held by tests/draft2020-12/*.json")
        #expect(tally.agreed + tally.refused == tally.cases)
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements.joined(separator: "\n"))")
    }

    @Test func draft7Mandatory() throws {
        let tally = try Self.run(folder: "draft7", dialect: .draft7)
        #expect(tally.files >= 37)
        #expect(tally.cases == 927, "cases held by tests/draft7/*.json")
        #expect(tally.agreed + tally.refused == tally.cases)
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements.joined(separator: "\n"))")
    }

    /// Exact numbers at any size (`1e308` is a multiple of 0.5): needs the exact `JSONNumber`.
    @Test(arguments: ["draft2020-12", "draft7"]) func optionalBignum(folder: String) throws {
        try expectAllAgree(folder: folder, files: ["optional/bignum.json", "optional/float-overflow.json"])
    }

    /// The optional files about references, identifiers and keywords, which the validator
    /// implements too (`content` is an annotation and `cross-draft` needs remote metaschemas).
    @Test(arguments: ["draft2020-12", "draft7"]) func optionalSemantics(folder: String) throws {
        let names = [
            "anchor", "dependencies-compatibility", "dynamicRef", "id", "no-schema", "non-bmp-regex",
            "refOfUnknownKeyword", "unknownKeyword",
        ]
        let present = names.map { "optional/\($0).json" }.filter {
            FileManager.default.fileExists(atPath: Self.tests.appendingPathComponent("\(folder)/\($0)").path)
        }
        #expect(present.count == (folder == "draft7" ? 3 : 8))
        try expectAllAgree(folder: folder, files: present)
    }

    /// ECMA-262 regular expressions: needs the real `ECMARegex`.
    @Test(arguments: ["draft2020-12", "draft7"]) func optionalECMAScriptRegex(folder: String) throws {
        try expectAllAgree(folder: folder, files: ["optional/ecmascript-regex.json"])
    }

    /// Every format file, with assertion opted in: needs the real `JSONSchemaFormat`.
    @Test(arguments: ["draft2020-12", "draft7"]) func optionalFormatsAsserted(folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.tests.appendingPathComponent("\(folder)/optional/format").path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "optional/format/\($0)" }
        #expect(names.count >= 18)
        try expectAllAgree(folder: folder, files: names, assertFormats: true)
    }

    private func expectAllAgree(folder: String, files: [String], assertFormats: Bool = false) throws {
        let dialect: SchemaDialect = folder == "draft7" ? .draft7 : .draft2020_12
        let tally = try Self.run(folder: folder, files: files, dialect: dialect, assertFormats: assertFormats)
        #expect(tally.cases > 0)
        #expect(tally.agreed + tally.refused == tally.cases, "\(tally.disagreements.joined(separator: "\n"))")
    }

    // MARK: - Running files

    struct Tally {
        var files = 0
        var cases = 0
        var agreed = 0
        var refused = 0
        var disagreements: [String] = []

        mutating func add(_ other: Tally) {
            files += other.files
            cases += other.cases
            agreed += other.agreed
            refused += other.refused
            disagreements += other.disagreements
        }
    }

    static func run(folder: String, files: [String]? = nil, dialect: SchemaDialect, assertFormats: Bool = false) throws -> Tally {
        let directory = tests.appendingPathComponent(folder)
        let names = try files
            ?? FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var total = Tally()
        for name in names {
            let tally = try run(file: directory.appendingPathComponent(name), dialect: dialect, assertFormats: assertFormats)
            print(
                "JSON-Schema-Test-Suite \(folder)/\(name): \(tally.agreed + tally.refused)/\(tally.cases) agree (\(tally.refused) refused as remote)")
            total.add(tally)
        }
        print(
            "JSON-Schema-Test-Suite \(folder) \(files == nil ? "mandatory" : "optional"): \(total.files) files, \(total.cases) cases, \(total.agreed) agree, \(total.refused) refused as remote, \(total.disagreements.count) disagree")
        return total
    }

    static func run(file url: URL, dialect: SchemaDialect, assertFormats: Bool) throws -> Tally {
        let groups = try JSONParser.parse([UInt8](Data(contentsOf: url)), options: .init(maxDepth: 512))
        var tally = Tally(files: 1)
        let file = url.lastPathComponent
        for group in groups.arrayValue ?? [] {
            let description = group["description"]?.stringValue ?? "?"
            let cases = group["tests"]?.arrayValue ?? []
            tally.cases += cases.count
            let schema = group["schema"] ?? .null
            let compiled: CompiledSchema
            do {
                compiled = try CompiledSchema.compile(schema, defaultDialect: dialect)
            } catch {
                if let reason = needsRemoteDocument(schema, error) {
                    tally.disagreements.append("\(file) «\(description)»: refused, but \(reason): \(error)")
                } else {
                    tally.refused += cases.count
                }
                continue
            }
            for testCase in cases {
                var budget = 1_000_000
                let outcome = compiled.validate(
                    testCase["data"] ?? .null, options: .init(assertFormats: assertFormats), budget: &budget)
                let expected = testCase["valid"]?.boolValue ?? false
                if outcome.exhausted {
                    tally.disagreements.append("\(file) «\(description)» «\(testCase["description"]?.stringValue ?? "?")»: budget ran out")
                } else if outcome.failures.isEmpty == expected {
                    tally.agreed += 1
                } else {
                    let why = outcome.failures.first.map { " (\($0.schemaPath): \($0.message))" } ?? ""
                    tally.disagreements.append(
                        "\(file) «\(description)» «\(testCase["description"]?.stringValue ?? "?")»: expected \(expected ? "valid" : "invalid")\(why)")
                }
            }
        }
        return tally
    }

    /// Why a refusal is not one the suite allows, or nil when it is: the error must point at a
    /// `$ref`, `$dynamicRef` or `$schema` whose URI is not fragment-only, whose last path
    /// segment no `$id` of the schema shares, and (for `$schema`) is not one of the two dialects.
    static func needsRemoteDocument(_ schema: JSONValue, _ error: SchemaCompileError) -> String? {
        let tokens = error.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
        guard let keyword = tokens.last, ["$ref", "$dynamicRef", "$schema"].contains(keyword) else {
            return "the error is not at a reference"
        }
        var value = schema
        for token in tokens {
            if let next = value[token] {
                value = next
            } else if case .array(let items) = value, let index = Int(token), items.indices.contains(index) {
                value = items[index]
            } else {
                return "the error path is not in the schema"
            }
        }
        guard case .string(let uri) = value, !uri.hasPrefix("#") else { return "the reference is local" }
        if keyword == "$schema" {
            let dialects = ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"]
            return dialects.contains(uri) ? "the $schema is a known dialect" : nil
        }
        let segment = lastSegment(uri)
        return ids(in: schema).contains { lastSegment($0) == segment && !segment.isEmpty } ? "an $id in the schema defines it" : nil
    }

    private static func lastSegment(_ uri: String) -> String {
        let withoutFragment = uri.split(separator: "#", omittingEmptySubsequences: false).first.map(String.init) ?? uri
        return withoutFragment.split(separator: "/").last.map(String.init) ?? ""
    }

    private static func ids(in value: JSONValue) -> [String] {
        switch value {
        case .object(let object):
            return object.members.flatMap { member in
                (member.key == "$id" ? [member.value.stringValue].compactMap { $0 } : []) + ids(in: member.value)
            }
        case .array(let items):
            return items.flatMap(ids(in:))
        default:
            return []
        }
    }
}
