import Registry

/// The body of setting a compatibility policy: `mode` and `enforce` are required, so a policy
/// is always stated whole; `oldestSupportedVersion` defaults to 1 (compare every version).
enum PolicyRequest {
    static func policy(_ body: BodyFields) throws(RegistryError) -> CompatibilityPolicy {
        let modeText = try body.requiredString(.mode)
        guard let mode = CompatibilityPolicy.Mode(exactly: modeText) else {
            throw .invalidArgument(
                "mode: must be one of \(CompatibilityPolicy.Mode.allCases.map(\.rawValue).joined(separator: ", ")), not \(JSONWriter.string(.string(modeText)))")
        }
        let enforceText = try body.requiredString(.enforce)
        guard let enforce = CompatibilityPolicy.Enforcement(exactly: enforceText) else {
            throw .invalidArgument("enforce: must be warn or reject, not \(JSONWriter.string(.string(enforceText)))")
        }
        var floor: Int32 = 1
        switch try body.value(.oldestSupportedVersion) {
        case nil, .null?: break
        case let value?: floor = try VersionNumber.parse(value, field: "oldestSupportedVersion")
        }
        return CompatibilityPolicy(mode: mode, enforce: enforce, oldestSupportedVersion: floor)
    }
}
