import Registry
import Testing
import TestSupport

/// The official suite's regular-expression cases, run against `ECMARegex` directly: each
/// `pattern` (or `patternProperties` key) is compiled and the case's strings searched. Every
/// case of every listed file must run; the counts are the files' own.
@Suite struct ECMARegexSuiteTests {
    static let files: [(path: String, cases: Int)] = [
        ("draft2020-12/optional/ecmascript-regex.json", 74),
        ("draft2020-12/optional/non-bmp-regex.json", 12),
        ("draft2020-12/pattern.json", 12),
        ("draft2020-12/patternProperties.json", 25),
        ("draft7/optional/ecmascript-regex.json", 74),
        ("draft7/optional/non-bmp-regex.json", 12),
        ("draft7/pattern.json", 9),
        ("draft7/patternProperties.json", 23),
    ]

    @Test(arguments: files)
    func agreesWithTheSuite(_ file: (path: String, cases: Int)) throws {
        let suite = try OfficialSuiteFile(file.path)
        var ran = 0
        for group in suite.groups {
            let schema = try #require(group.schema.objectValue)
            for testCase in group.cases {
                let verdict = try Self.verdict(of: schema, on: testCase.data)
                #expect(verdict == testCase.valid, "\(file.path): \(group.description) / \(testCase.description)")
                ran += 1
            }
        }
        #expect(suite.caseCount == file.cases)
        #expect(ran == file.cases)
    }

    /// Whether `data` satisfies `schema`, for the shapes these files hold: `pattern` (with
    /// `type: string`), and `patternProperties` whose subschemas are booleans or a single
    /// `type`/`maximum`, with `additionalProperties: false`. Anything else fails the test, so
    /// no case is silently skipped.
    static func verdict(of schema: JSONObject, on data: JSONValue) throws -> Bool {
        let known = ["$schema", "type", "pattern", "patternProperties", "additionalProperties"]
        for key in schema.keys { try #require(known.contains(key), "unexpected keyword \(key)") }
        if let type = schema["type"]?.stringValue, !matches(type: type, data) { return false }
        if case .string(let pattern) = schema["pattern"], case .string(let text) = data {
            if try !search(pattern, text) { return false }
        }
        guard let patterns = schema["patternProperties"]?.objectValue, let object = data.objectValue else { return true }
        let closed = schema["additionalProperties"]?.boolValue == false
        for member in object.members {
            var matched = false
            for (pattern, subschema) in patterns.members where try search(pattern, member.key) {
                matched = true
                if try !satisfies(subschema, member.value) { return false }
            }
            if closed, !matched { return false }
        }
        return true
    }

    static func search(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try ECMARegex(pattern)
        var budget = 1_000_000
        return try #require(regex.search(text, budget: &budget))
    }

    static func satisfies(_ subschema: JSONValue, _ value: JSONValue) throws -> Bool {
        if let flag = subschema.boolValue { return flag }
        let object = try #require(subschema.objectValue)
        for key in object.keys { try #require(["type", "maximum"].contains(key), "unexpected subschema keyword \(key)") }
        if let type = object["type"]?.stringValue, !matches(type: type, value) { return false }
        if let maximum = object["maximum"]?.doubleValue, let number = value.doubleValue, number > maximum { return false }
        return true
    }

    static func matches(type: String, _ value: JSONValue) -> Bool {
        switch type {
        case "integer": value.doubleValue != nil && value.isIntegral
        case "number": value.doubleValue != nil
        default: value.typeName == type
        }
    }
}
