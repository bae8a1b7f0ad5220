@testable import Registry
import Testing
import TestSupport

/// Numbers compare by exact value whatever their lexeme: no rounding through `Double` or
/// `Decimal`, and no power of ten expanded, so `1e1000000000` is as cheap as `1`.
@Suite struct JSONNumberTests {
    func n(_ lexeme: String) -> JSONNumber { JSONNumber(lexeme) }

    @Test func equalValuesWrittenDifferently() {
        #expect(n("1") == n("1.0"))
        #expect(n("1") == n("10e-1"))
        #expect(n("100") == n("1e2"))
        #expect(n("0.000123") == n("1.23E-4"))
        #expect(n("-0") == n("0"))
        #expect(n("-0.0e5") == n("0"))
        #expect(n("1e400") == n("10e399"))
        #expect(n("1e400") != n("1e401"))
        #expect(n("18446744073709551616") != n("18446744073709551617"), "beyond UInt64, still exact")
        #expect(n("0.1000000000000000000000000000000000000001") != n("0.1"), "beyond Decimal's 38 digits")
        #expect(n("not a number") != n("not a number"))
    }

    @Test func ordering() {
        #expect(n("1") < n("1.0000000000000000000000000000000000000000001"))
        #expect(n("-1e400") < n("-1e399"))
        #expect(n("-1e400") < n("1e-400"))
        #expect(n("1e-400") < n("1e-399"))
        #expect(n("0") < n("1e-400"))
        #expect(n("-1e-400") < n("-0"))
        #expect(!(n("-0") < n("0")) && !(n("0") < n("-0")))
        #expect(n("9.99") < n("10"))
        #expect(n("123") < n("124"))
        #expect(n("12") < n("120"))
        #expect(n("1e1000000000") < n("1e1000000001"))
        #expect(n("1e99999999999999999999999") < n("1e100000000000000000000000"), "exponents beyond Int64")
        #expect(n("2e99999999999999999999999") > n("1e99999999999999999999999"))
        #expect(n("10e99999999999999999") == n("1e100000000000000000"), "across the Int/digits boundary of exponents")
        #expect(Set([n("10e99999999999999999"), n("1e100000000000000000")]).count == 1)
        #expect(n("1e99999999999999999") < n("1e100000000000000000"))
        #expect(n("1e-100000000000000000") < n("1e-99999999999999999"))
        #expect(n("1e-100000000000000000").isMultiple(of: n("1e-100000000000000001")) == true)
    }

    @Test func multipleOfIsExact() {
        #expect(n("1e308").isMultiple(of: n("0.5")) == true)
        #expect(n("1e1000000000").isMultiple(of: n("0.5")) == true)
        #expect(n("0.3").isMultiple(of: n("0.1")) == true)
        #expect(n("0.30000000000000001").isMultiple(of: n("0.1")) == false)
        #expect(n("1e-400").isMultiple(of: n("1e-401")) == true)
        #expect(n("1e-401").isMultiple(of: n("1e-400")) == false)
        #expect(n("7.5").isMultiple(of: n("2.5")) == true)
        #expect(n("7.5").isMultiple(of: n("2")) == false)
        #expect(n("-12").isMultiple(of: n("4")) == true)
        #expect(n("21").isMultiple(of: n("7")) == true)
        #expect(n("22").isMultiple(of: n("7")) == false)
        #expect(n("123456789012345678901234567890").isMultiple(of: n("3")) == true)
        #expect(n("123456789012345678901234567891").isMultiple(of: n("3")) == false)
        #expect(n("1e5").isMultiple(of: n("32")) == true, "10^5 holds 2^5")
        #expect(n("1e4").isMultiple(of: n("32")) == false)
        #expect(n("0").isMultiple(of: n("0.7")) == true)
        #expect(n("-0").isMultiple(of: n("3")) == true)
        #expect(n("5").isMultiple(of: n("0")) == nil)
        #expect(n("5").isMultiple(of: n("-1")) == nil)
    }

    @Test func integersAndTheirSwiftRanges() {
        #expect(n("1.0").isInteger && n("1e400").isInteger && n("-0").isInteger)
        #expect(!n("1.5").isInteger && !n("1e-400").isInteger)
        #expect(n("9223372036854775807").int64Value == .max)
        #expect(n("-9223372036854775808").int64Value == .min)
        #expect(n("9223372036854775808").int64Value == nil)
        #expect(n("9.223372036854775807e18").int64Value == .max)
        #expect(n("1e19").int64Value == nil)
        #expect(n("1e1000000000").int64Value == nil)
        #expect(n("-0.0").int64Value == 0)
        #expect(n("18446744073709551615").uint64Value == .max)
        #expect(n("18446744073709551616").uint64Value == nil)
        #expect(n("-1").uint64Value == nil)
        #expect(n("2.5").int64Value == nil)
    }

    @Test func doubleOverflow() {
        #expect(n("1e400").overflowsDouble)
        #expect(n("-1e400").overflowsDouble)
        #expect(n("1.7976931348623157e308").overflowsDouble == false)
        #expect(n("1e-400").overflowsDouble == false, "underflow rounds to zero: a Double holds it")
        #expect(n("1e308").overflowsDouble == false)
    }

    static let files: [(path: String, cases: Int)] = [
        ("draft2020-12/optional/bignum.json", 9), ("draft2020-12/optional/float-overflow.json", 1),
        ("draft7/optional/bignum.json", 9), ("draft7/optional/float-overflow.json", 1),
    ]

    /// The suite's big-number cases evaluated with these comparisons: every case runs.
    @Test(arguments: files)
    func agreesWithTheSuite(_ file: (path: String, cases: Int)) throws {
        let suite = try OfficialSuiteFile(file.path)
        var ran = 0
        for group in suite.groups {
            let schema = try #require(group.schema.objectValue)
            for testCase in group.cases {
                #expect(try Self.verdict(schema, testCase.data) == testCase.valid, "\(file.path): \(group.description) / \(testCase.description)")
                ran += 1
            }
        }
        #expect(suite.caseCount == file.cases)
        #expect(ran == file.cases)
    }

    static func verdict(_ schema: JSONObject, _ data: JSONValue) throws -> Bool {
        func number(_ key: String) -> JSONNumber? { if case .number(let l) = schema[key] { JSONNumber(l) } else { nil } }
        for key in schema.keys {
            try #require(["$schema", "type", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"].contains(key))
        }
        guard case .number(let lexeme) = data else {
            return schema["type"].map { $0.stringValue == data.typeName } ?? true
        }
        let value = JSONNumber(lexeme)
        switch schema["type"]?.stringValue {
        case "integer": if !value.isInteger { return false }
        case "number", nil: break
        default: return false
        }
        if let maximum = number("maximum"), maximum < value { return false }
        if let minimum = number("minimum"), value < minimum { return false }
        if let maximum = number("exclusiveMaximum"), !(value < maximum) { return false }
        if let minimum = number("exclusiveMinimum"), !(minimum < value) { return false }
        if let step = number("multipleOf"), value.isMultiple(of: step) == false { return false }
        return true
    }
}
