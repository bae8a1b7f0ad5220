/// The checks of a schema about to be published, made on what is known of it: its
/// compatibility report against earlier live versions, which refuses the publish when it finds
/// new problems under `requireCompatible` or a policy that rejects, and warnings that never
/// refuse (a worst-case start payload that cannot fit APNs' 4 KB, a type name no Swift type can
/// have, names that may be mistaken for others, `type` values that are not JSON Schema type
/// names, keywords the schema's dialect does not define, an explicit version far beyond the
/// newest).
public struct PublishChecks: Sendable {
    public let compatibility: CompatibilityReport
    public let warnings: [JSONValue]

    /// How far beyond the newest live version an explicit version may go without a warning.
    public static let maxVersionJump: Int64 = 1_000

    /// Throws the 409 of a refusal. `explicitVersion` is the number asked for, nil for the next
    /// free one; `newestVersion` the newest live version below it, nil when there is none.
    public init(
        _ document: SchemaDocument, attributesType: String, compatibility: CompatibilityReport, requireCompatible: Bool,
        explicitVersion: Int32? = nil, newestVersion: Int32? = nil
    ) throws(RegistryError) {
        if !compatibility.isCompatible, requireCompatible || compatibility.policy.enforce == .reject {
            throw Self.refusal(compatibility, requested: requireCompatible)
        }
        self.compatibility = compatibility
        let named = [SwiftTypeName.warning(about: attributesType)].compactMap { $0 }
            + LookalikeNames.warnings(attributesType: attributesType, document: document)
            + SchemaTypeNames.warnings(in: document)
        warnings = Self.versionJumpWarning(explicitVersion, newest: newestVersion)
            + Self.payloadWarnings(document, attributesType: attributesType)
            + (named + Self.unknownKeywordWarnings(document)).map { ["path": .string($0.path), "message": .string($0.message)] }
    }

    /// Keywords the schema's dialect does not define are ignored by every check, so a typo
    /// (`maxLenght`) would silently check nothing: say so, with the nearest known keyword.
    static func unknownKeywordWarnings(_ document: SchemaDocument) -> [SchemaWarning] {
        guard case .success(let compiled) = document.compiled else { return [] }
        return compiled.unknownKeywords.map { unknown in
            let path = JSONPathComponent.render(pointer: unknown.path, prefix: "jsonSchema")
            let hint = unknown.suggestion.map { "; did you mean \(ClientText.quoted($0))?" } ?? " (registry extensions start with x-)"
            return SchemaWarning(
                path: JSONPathComponent.render([.key(unknown.keyword)], prefix: path),
                message: "\(ClientText.quoted(unknown.keyword)) is not a keyword of \(compiled.dialect.name), so no check reads it\(hint)")
        }
    }

    /// An explicit number far beyond the newest is usually a typo or a timestamp, and it moves
    /// the type's next-free number there for good (2147483647 ends the sequence).
    static func versionJumpWarning(_ version: Int32?, newest: Int32?) -> [JSONValue] {
        guard let version else { return [] }
        let from = Int64(newest ?? 0)
        guard Int64(version) - from > maxVersionJump else { return [] }
        let newestText = newest.map { "the newest live version, \($0)" } ?? "no live version"
        return [[
            "path": "version",
            "message": .string(
                "version \(version) is \(Int64(version) - from) beyond \(newestText) (more than \(maxVersionJump)): the next-free number continues from \(version) for good, and the numbers skipped can only be published explicitly"),
        ]]
    }

    /// The 409: the message names each new problem once, with the versions it concerns; the
    /// report itself is the error's one detail.
    static func refusal(_ report: CompatibilityReport, requested: Bool) -> RegistryError {
        let fresh = report.groups.filter(\.isNew)
        var findings = fresh.prefix(report.listLimit).map { group in
            "\(group.path) (\(group.kind.rawValue), against version\(group.versions.count == 1 ? "" : "s") \(group.versionRangesText))"
        }
        if fresh.count > report.listLimit { findings.append("\(fresh.count - report.listLimit) more") }
        let reason = requested
            ? "requireCompatible: the schema is not compatible with earlier versions"
            : "the compatibility policy of this type (\(report.policy.mode.rawValue), reject) refuses the schema"
        var detail: JSONObject = ["@type": "compatibility_report"]
        if case .object(let fields) = report.jsonValue { detail.members += fields.members }
        return RegistryError(
            code: .alreadyExists, message: reason + ": " + findings.joined(separator: "; "),
            details: [.object(detail)])
    }

    private static func payloadWarnings(_ document: SchemaDocument, attributesType: String) -> [JSONValue] {
        let limit = LiveActivityPreview.maxPayloadBytes
        if let worst = PayloadSizeEstimator.worstCaseStartPayloadBytes(of: document, attributesType: attributesType), worst > limit {
            return [[
                "path": "jsonSchema",
                "message": .string("a start push with the longest values this schema allows is \(worst) bytes, over APNs' \(limit)-byte limit"),
            ]]
        }
        if let content = PayloadSizeEstimator.maxContentStateBytes(of: document), content > limit {
            return [[
                "path": "jsonSchema.properties",
                "message": .string("the content state alone can reach \(content) bytes, over APNs' \(limit)-byte payload limit"),
            ]]
        }
        return []
    }

    /// What the publish's audit event records: the compatibility verdict, with the problems
    /// that were accepted when it was not compatible.
    public var auditDetails: JSONObject {
        ["compatibility": compatibility.jsonValue]
    }
}
