/// What this binary is, for `version`, the start-up log and metrics.
enum BuildInfo {
    static let version = "0.1.0"
    static var versionLine: String { "schema-registry \(version)" }
}
