import Registry
import RegistryPostgres

/// `schema-registry admin …`: plain SQL underneath (see AdminStore), scriptable output.
enum AdminCommand {
    /// What each action accepts; a new option is one line here.
    static let actions: [String: CommandSyntax] = [
        "create-account": CommandSyntax(command: "admin create-account", positionals: ["NAME"]),
        "create-application": CommandSyntax(
            command: "admin create-application", options: [.value("account"), .value("code"), .value("name")]),
        "issue-token": CommandSyntax(
            command: "admin issue-token",
            options: [.value("account"), .value("scope"), .repeatable("application"), .value("name"), .value("expires-in")]),
        "set-token-expiry": CommandSyntax(command: "admin set-token-expiry", positionals: ["TOKEN_ID"], options: [.value("expires-in")]),
        "audit": CommandSyntax(command: "admin audit", options: [.value("account"), .value("since")]),
        "usage": CommandSyntax(
            command: "admin usage", positionals: ["TYPE"], options: [.value("application"), .value("days")],
            optionalPositionals: ["VERSION"]),
        "revoke-token": CommandSyntax(command: "admin revoke-token", positionals: ["TOKEN_ID"]),
        "list-applications": CommandSyntax(command: "admin list-applications", options: [.value("account")]),
        "list-tokens": CommandSyntax(command: "admin list-tokens", options: [.value("account")]),
        "export": CommandSyntax(command: "admin export", options: [.value("application"), .value("out")]),
        "import": CommandSyntax(command: "admin import", positionals: ["FILE"], options: [.value("application"), .flag("dry-run")]),
        "seal-webhook-secrets": CommandSyntax(command: "admin seal-webhook-secrets"),
    ]

    static func run(_ words: [String], environment: [String: String]) async throws {
        guard let action = words.first else { throw UsageError("admin needs an action") }
        guard let syntax = actions[action] else { throw UsageError("unknown admin action '\(action)'") }
        let arguments = try syntax.parse(words.dropFirst())
        let configuration = try Configuration.fromEnvironment(environment)
        let pool = Database.pool(configuration)
        defer { pool.close() }
        let admin = AdminStore(pool: pool)
        switch action {
        case "create-account":
            print(try admin.createAccount(name: arguments.positional[0]))
        case "create-application":
            let account = try arguments.requiredIntegerOption("account")
            print(try admin.createApplication(accountID: account, code: arguments.option("code"), name: arguments.option("name") ?? ""))
        case "issue-token":
            try issueToken(arguments, admin: admin)
        case "set-token-expiry":
            try setTokenExpiry(arguments, admin: admin)
        case "audit":
            try await printAudit(arguments, store: PostgresSchemaStore(pool: pool))
        case "usage":
            try await printUsage(arguments, store: PostgresSchemaStore(pool: pool))
        case "revoke-token":
            guard let id = Int64(arguments.positional[0]) else { throw UsageError("TOKEN_ID must be an integer") }
            guard try admin.revokeToken(id: id) else { Console.fail("no live token with id \(id)", status: 1) }
            Console.message("revoked token \(id)")
        case "list-applications":
            for application in try admin.listApplications(accountID: arguments.integerOption("account")) {
                print([application.code, String(application.accountID), application.name, application.created].joined(separator: "\t"))
            }
        case "list-tokens":
            for token in try admin.listTokens(accountID: arguments.integerOption("account")) {
                print(tokenLine(token))
            }
        case "export":
            try TransferCommands.export(arguments, transfer: ApplicationTransfer(pool: pool, webhookSecretKey: configuration.webhookSecretKey))
        case "import":
            try TransferCommands.importing(arguments, transfer: ApplicationTransfer(pool: pool, webhookSecretKey: configuration.webhookSecretKey))
        case "seal-webhook-secrets":
            try sealWebhookSecrets(keyring: configuration.webhookSecretKeyring, pool: pool)
        default:
            preconditionFailure("every action in `actions` is handled above")
        }
    }
}
