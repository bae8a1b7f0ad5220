/// The text of `schema-registry help`: commands and every environment variable, so operators
/// (and the deploy-artifact checker) see exactly what the binary understands.
enum Help {
    static let commands: [(usage: String, meaning: String)] = [
        ("serve", "serve the HTTP API (refuses to start on an unmigrated database)"),
        ("migrate", "apply pending migrations in order, under an advisory lock"),
        ("admin create-account NAME", "create an account; prints its id"),
        ("admin create-application --account ID [--code XXXXX-XXXXX] [--name N]", "create an application; prints its code"),
        (
            "admin issue-token --account ID [--scope read|publish|admin] [--application CODE]… [--name TEXT] [--expires-in 90d]",
            "issue an API token (scope admin unless given); prints the secret once"
        ),
        ("admin set-token-expiry TOKEN_ID --expires-in 30d|never", "change when a token expires"),
        ("admin revoke-token TOKEN_ID", "revoke a token"),
        ("admin list-applications [--account ID]", "list applications (code, account, name, created)"),
        (
            "admin list-tokens [--account ID]",
            "list tokens (id, account, scope, applications, name, created, expires, last used, revoked; never secrets)"
        ),
        ("admin audit [--account ID] [--since TIME]", "print audit events oldest first, one JSON object per line"),
        (
            "admin usage --application CODE TYPE [VERSION] [--days N]",
            "print who read a type or version, how often and when last, as one JSON object (flushed reads only)"
        ),
        ("admin export --application CODE [--out FILE]", "write an application's versions, retired numbers and policies as JSON"),
        ("admin import --application CODE FILE [--dry-run]", "apply an export in one transaction; conflicts write nothing (exit 1)"),
        (
            "admin seal-webhook-secrets",
            "run one sealing pass now (as serve does hourly); prints counts by key id, exit 1 while a secret is not under REGISTRY_WEBHOOK_SECRET_KEY"
        ),
        ("schema-from-swift PATH... --type NAME", "print the jsonSchema of an ActivityAttributes type read from Swift files or directories"),
        (
            "publish --url URL --token-file F --application CODE --type NAME (--swift PATH | --schema FILE) [--if-changed] [--require-compatible] [--label k=v]… [--notes TEXT]",
            "publish a schema from CI; prints the version (exit 0; 3 incompatible, 4 schema rule, 2 usage, 1 other)"
        ),
        (
            "check-values --url URL --token-file F --application CODE --type NAME --version N --event E FILE",
            "check contentState/attributes values against a version (exit 0 valid, 4 invalid)"
        ),
        ("version", "print the version and git commit"),
        ("help", "print this text"),
    ]

    static var text: String {
        var out = "usage: schema-registry COMMAND [ARGS]\n\nCommands:\n"
        let width = commands.map(\.usage.count).max() ?? 0
        for command in commands {
            out += "  " + command.usage.padding(width) + "  " + command.meaning + "\n"
        }
        out += "\nEnvironment:\n"
        let variableWidth = Configuration.settings.map(\.name.count).max() ?? 0
        for setting in Configuration.settings {
            out += "  " + setting.name.padding(variableWidth) + "  " + setting.help + "\n"
        }
        return out
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
