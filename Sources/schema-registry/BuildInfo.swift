/// What this binary is, for `version`, the start-up log and metrics. The commit is recorded
/// at build time by BuildInfoPlugin.
enum BuildInfo {
    static let version = "0.1.0"
    static let commit = GeneratedBuildInfo.commit
    static var versionLine: String { "schema-registry \(version) (commit \(commit))" }
}
