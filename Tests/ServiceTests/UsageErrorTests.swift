import Foundation
import Testing
import TestSupport

/// Every command refuses words it does not declare (unknown options, options without their
/// value, repeated single-use options, stray or missing arguments) with one line naming the
/// word and exit status 2, before it reads the configuration or touches the database.
@Suite struct UsageErrorTests {
    struct Misuse: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        /// The word the one line must name.
        let named: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let misuses = [
        Misuse(arguments: ["serve", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["serve", "extra"], named: "extra"),
        Misuse(arguments: ["migrate", "--dry-run"], named: "--dry-run"),
        Misuse(arguments: ["migrate", "now"], named: "now"),
        Misuse(arguments: ["version", "--verbose"], named: "--verbose"),
        Misuse(arguments: ["version", "extra"], named: "extra"),
        Misuse(arguments: ["help", "serve"], named: "serve"),
        Misuse(arguments: ["help", "--all"], named: "--all"),
        Misuse(arguments: ["--help", "-x"], named: "-x"),
        Misuse(arguments: ["schema-from-swift", "A.swift", "--type", "T", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["schema-from-swift", "A.swift", "--type"], named: "--type"),
        Misuse(arguments: ["schema-from-swift", "--type", "T"], named: "PATH"),
        Misuse(arguments: ["schema-from-swift", "A.swift", "--type", "T", "--type", "U"], named: "--type"),
        Misuse(arguments: ["admin"], named: "action"),
        Misuse(arguments: ["admin", "frobnicate"], named: "frobnicate"),
        Misuse(arguments: ["admin", "create-account"], named: "NAME"),
        Misuse(arguments: ["admin", "create-account", "Acme", "Airlines"], named: "Airlines"),
        Misuse(arguments: ["admin", "create-account", "Acme", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["admin", "create-application", "--account", "1", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["admin", "create-application", "--account"], named: "--account"),
        Misuse(arguments: ["admin", "create-application", "--account", "1", "stray"], named: "stray"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["admin", "issue-token", "--account", "--bogus"], named: "--account"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "--account", "2"], named: "--account"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "stray"], named: "stray"),
        Misuse(arguments: ["admin", "issue-token"], named: "--account"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "--scope"], named: "--scope"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "--scope", "read", "--scope", "admin"], named: "--scope"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "--application", "--name", "ci"], named: "--application"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "--name", "a", "--name", "b"], named: "--name"),
        Misuse(arguments: ["admin", "issue-token", "--account", "1", "--expires-in"], named: "--expires-in"),
        Misuse(arguments: ["admin", "set-token-expiry", "--expires-in", "30d"], named: "TOKEN_ID"),
        Misuse(arguments: ["admin", "set-token-expiry", "1", "--expires-in"], named: "--expires-in"),
        Misuse(arguments: ["admin", "set-token-expiry", "1", "2", "--expires-in", "30d"], named: "2"),
        Misuse(arguments: ["admin", "set-token-expiry", "1", "--expires-in", "30d", "--expires-in", "never"], named: "--expires-in"),
        Misuse(arguments: ["admin", "audit", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["admin", "audit", "--since"], named: "--since"),
        Misuse(arguments: ["admin", "audit", "--account", "1", "--account", "2"], named: "--account"),
        Misuse(arguments: ["admin", "audit", "stray"], named: "stray"),
        Misuse(arguments: ["admin", "usage", "--application", "XXXXX-XXXXX"], named: "TYPE"),
        Misuse(arguments: ["admin", "usage", "--application", "XXXXX-XXXXX", "T", "1", "stray"], named: "stray"),
        Misuse(arguments: ["admin", "usage", "--application", "XXXXX-XXXXX", "T", "--days"], named: "--days"),
        Misuse(arguments: ["admin", "usage", "--application", "A", "--application", "B", "T"], named: "--application"),
        Misuse(arguments: ["admin", "revoke-token"], named: "TOKEN_ID"),
        Misuse(arguments: ["admin", "revoke-token", "1", "2"], named: "2"),
        Misuse(arguments: ["admin", "revoke-token", "1", "--force"], named: "--force"),
        Misuse(arguments: ["admin", "list-applications", "--acount", "1"], named: "--acount"),
        Misuse(arguments: ["admin", "list-applications", "stray"], named: "stray"),
        Misuse(arguments: ["admin", "list-tokens", "--account"], named: "--account"),
        Misuse(arguments: ["admin", "list-tokens", "-a", "1"], named: "-a"),
        Misuse(arguments: ["admin", "export", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["admin", "export", "--application"], named: "--application"),
        Misuse(arguments: ["admin", "export", "--application", "A", "--out", "a.json", "--out", "b.json"], named: "--out"),
        Misuse(arguments: ["admin", "export", "--application", "A", "stray"], named: "stray"),
        Misuse(arguments: ["admin", "import", "--application", "A"], named: "FILE"),
        Misuse(arguments: ["admin", "import", "a.json", "b.json", "--application", "A"], named: "b.json"),
        Misuse(arguments: ["admin", "import", "a.json", "--application", "A", "--dry-run", "--dry-run"], named: "--dry-run"),
        Misuse(arguments: ["admin", "import", "a.json", "--dry-run", "yes"], named: "yes"),
        Misuse(arguments: ["admin", "seal-webhook-secrets", "now"], named: "now"),
        Misuse(arguments: ["admin", "seal-webhook-secrets", "--key", "k"], named: "--key"),
        Misuse(arguments: ["publish", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["publish", "--url"], named: "--url"),
        Misuse(arguments: ["publish", "stray"], named: "stray"),
        Misuse(arguments: ["publish", "--if-changed", "--if-changed"], named: "--if-changed"),
        Misuse(arguments: ["publish", "--type", "A", "--type", "B"], named: "--type"),
        Misuse(arguments: ["publish", "--schema", "x.json", "--application", "A", "--type", "T", "--token", "s3cret"], named: "--token-file"),
        Misuse(arguments: ["check-values", "--bogus", "1"], named: "--bogus"),
        Misuse(arguments: ["check-values", "--url", "http://127.0.0.1:1"], named: "FILE"),
        Misuse(arguments: ["check-values", "a.json", "b.json"], named: "b.json"),
        Misuse(arguments: ["check-values", "a.json", "--version"], named: "--version"),
        Misuse(arguments: ["check-values", "a.json", "--event", "start", "--event", "update"], named: "--event"),
    ]

    @Test(arguments: misuses)
    func misuseExitsTwoWithOneLineNamingTheWord(_ misuse: Misuse) throws {
        // A reachable-looking database: a command that ignored the misuse would go on to use it.
        let environment = ServiceProcess.environment(["DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"])
        let result = try ServiceProcess.run(misuse.arguments, environment: environment, timeoutSeconds: 10)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains(misuse.named), "the line names \(misuse.named): \(result)")
    }

    @Test func everyCommandInTheHelpIsCoveredByTheMisuseTable() throws {
        let help = try ServiceProcess.run(["help"], environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        let usages = help.stdoutLines.drop { $0 != "Commands:" }.dropFirst().prefix { !$0.isEmpty }
        // "  admin issue-token --account ID   issue an API token…": the lowercase words of the usage.
        let commands = usages.map { line in
            let usage = line.drop { $0 == " " }.split(separator: "  ").first ?? ""
            return usage.split(separator: " ").prefix { $0.first?.isLowercase ?? false }.joined(separator: " ")
        }
        #expect(commands.count >= 11, "read the commands from help: \(commands)")
        for command in commands {
            let covered = Self.misuses.filter { $0.arguments.joined(separator: " ").hasPrefix(command) }
            #expect(covered.count >= 2, "\(command) has misuse cases")
        }
    }
}
