import Registry
import RegistryPostgres

/// `schema-registry admin …`: plain SQL underneath (see AdminStore), scriptable output.
enum AdminCommand {
    static func run(_ words: [String], environment: [String: String]) throws {
        guard let action = words.first else { throw UsageError("admin needs an action") }
        let arguments = try Arguments(words.dropFirst(), flags: ["dry-run"])
        let configuration = try Configuration.fromEnvironment(environment)
        let pool = Database.pool(configuration)
        defer { pool.close() }
        let admin = AdminStore(pool: pool)
        switch action {
        case "create-account":
            print(try admin.createAccount(name: arguments.requiredPositional(0, "NAME")))
        case "create-application":
            let account = try arguments.integerOption("account") ?? { throw UsageError("--account is required") }()
            print(try admin.createApplication(accountID: account, code: arguments.option("code"), name: arguments.option("name") ?? ""))
        case "issue-token":
            let account = try arguments.integerOption("account") ?? { throw UsageError("--account is required") }()
            let token = APIToken.generate()
            _ = try admin.issueToken(accountID: account, tokenHash: token.hash)
            print(token.secret)
        case "revoke-token":
            guard let id = Int64(try arguments.requiredPositional(0, "TOKEN_ID")) else {
                throw UsageError("TOKEN_ID must be an integer")
            }
            guard try admin.revokeToken(id: id) else { Console.fail("no live token with id \(id)", status: 1) }
            Console.message("revoked token \(id)")
        case "list-applications":
            for application in try admin.listApplications(accountID: arguments.integerOption("account")) {
                print([application.code, String(application.accountID), application.name, application.created].joined(separator: "\t"))
            }
        case "list-tokens":
            for token in try admin.listTokens(accountID: arguments.integerOption("account")) {
                print([String(token.id), String(token.accountID), token.created, token.revoked ?? "-"].joined(separator: "\t"))
            }
        case "export":
            try TransferCommands.export(arguments, transfer: ApplicationTransfer(pool: pool))
        case "import":
            try TransferCommands.importing(arguments, transfer: ApplicationTransfer(pool: pool))
        default:
            throw UsageError("unknown admin action '\(action)'")
        }
    }
}
