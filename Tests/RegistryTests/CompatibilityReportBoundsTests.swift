import Registry
import Testing

/// A report's wire shape stays small however many versions and fields a type has: each list
/// holds its first `listLimit` entries, with the totals and `truncated`, and a group's versions
/// are ranges.
@Suite struct CompatibilityReportBoundsTests {
    private func outline(fields names: [String]) throws -> CompatibilityOutline {
        let properties = names.map { #""\#($0)":{"type":"string"}"# }.joined(separator: ",")
        return CompatibilityOutline(document: try SchemaRules.validate(#"{"type":"object","properties":{\#(properties)}}"#))
    }

    /// Versions 1…`versions`, each with `fields` names of its own, reviewed by an empty schema:
    /// every field of every version is removed; those of the newest are new problems, the rest
    /// inherited (the newest version already lacked them).
    private func floodReport(versions: Int, fields: Int, listLimit: Int = CompatibilityReport.defaultListLimit) throws
        -> CompatibilityReport
    {
        let history = try (1...versions).map { version in
            ComparedVersion(
                version: Int32(version), contentHash: [UInt8(version % 256), UInt8(version / 256)],
                outline: try outline(fields: (0..<fields).map { "v\(version)_field_\($0)" }))
        }
        return Compatibility.review(
            try outline(fields: []), contentHash: [0xFF, 0xFF], policy: .builtIn, newest: history.last, earlier: history,
            limitReached: false, listLimit: listLimit)
    }

    private func object(_ report: CompatibilityReport) throws -> JSONObject {
        guard case .object(let object) = report.jsonValue else { throw RegistryError.internal("not an object") }
        return object
    }

    @Test func aReportOf120VersionsOf117NamesListsTheLimitWithTotals() throws {
        let report = try floodReport(versions: 120, fields: 117)
        #expect(report.problems.count + report.inheritedProblems.count == 120 * 117)
        let object = try object(report)
        #expect(object["problems"]?.arrayValue?.count == 117)
        #expect(object["inherited_problems"]?.arrayValue?.count == 200)
        #expect(object["groups"]?.arrayValue?.count == 200)
        #expect(object["problem_count"] == .number("117"))
        #expect(object["group_count"] == .number("14040"))
        #expect(object["inherited_problem_count"] == .number("13923"))
        #expect(object["truncated"] == true)
        #expect(object["compatible"] == false)
        let bytes = JSONWriter.string(report.jsonValue).utf8.count
        #expect(bytes < 200 << 10, "\(bytes) bytes")
    }

    @Test func theListLimitIsTheCallers() throws {
        let object = try object(try floodReport(versions: 3, fields: 4, listLimit: 5))
        #expect(object["problems"]?.arrayValue?.count == 4)
        #expect(object["inherited_problems"]?.arrayValue?.count == 5)
        #expect(object["groups"]?.arrayValue?.count == 5)
        #expect(object["problem_count"] == .number("4"))
        #expect(object["inherited_problem_count"] == .number("8"))
        #expect(object["truncated"] == true)
    }

    @Test func aReportWithinTheLimitIsWholeAndNotTruncated() throws {
        let object = try object(try floodReport(versions: 3, fields: 4))
        #expect(object["problems"]?.arrayValue?.count == 4)
        #expect(object["inherited_problems"]?.arrayValue?.count == 8)
        #expect(object["groups"]?.arrayValue?.count == 12)
        #expect(object["truncated"] == false)
    }

    /// 300 fields of the newest version removed: 300 new groups, 200 named.
    @Test func theRefusalNamesAtMostTheLimitOfGroups() throws {
        let report = try floodReport(versions: 1, fields: 300)
        let schema = try SchemaRules.validate(#"{"type":"object","properties":{}}"#)
        do {
            _ = try PublishChecks(schema, attributesType: "T", compatibility: report, requireCompatible: true)
            Issue.record("an incompatible report under requireCompatible was not refused")
        } catch {
            #expect(error.message.hasSuffix("; 100 more"), "\(error.message.suffix(80))")
            #expect(error.message.utf8.count < 64 << 10, "\(error.message.utf8.count) bytes")
            #expect(JSONWriter.string(.array(error.details)).utf8.count < 200 << 10)
        }
    }

    /// One field removed in every version but 61: `[[1, 60], [62, 62]]`.
    @Test func aGroupsVersionsAreRanges() throws {
        let history = try (1...62).map { version in
            ComparedVersion(
                version: Int32(version), contentHash: [UInt8(version)],
                outline: try outline(fields: version == 61 ? ["kept"] : ["kept", "gone"]))
        }
        let report = Compatibility.review(
            try outline(fields: ["kept"]), contentHash: [0], policy: .builtIn, newest: history.last, earlier: history,
            limitReached: false)
        let group = try #require(report.groups.first)
        #expect(group.versionRanges == [1...60, 62...62])
        #expect(group.versionRangesText == "1–60, 62")
        #expect(group.jsonValue["version_ranges"] == [[1, 60], [62, 62]])
        #expect(group.jsonValue["version_count"] == 61)
    }
}
