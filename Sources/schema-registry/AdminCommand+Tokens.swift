import Registry
import RegistryPostgres

/// Token actions of `schema-registry admin`.
extension AdminCommand {
    /// A new token's scope when `--scope` is not given: `admin`, the power every token had
    /// before scopes existed, so scripts written before them keep working. The scope is always
    /// printed (on stderr) so nobody issues an admin token unknowingly.
    static let defaultScope = TokenScope.admin

    /// Prints the secret alone on stdout (once; it is stored only as a hash) and what the
    /// token may do on stderr.
    static func issueToken(_ arguments: Arguments, admin: AdminStore) throws {
        let account = try arguments.requiredIntegerOption("account")
        let scope = try arguments.option("scope").map { text throws(UsageError) in
            guard let scope = TokenScope(exactly: text) else { throw UsageError("--scope must be read, publish or admin, got \"\(text)\"") }
            return scope
        } ?? defaultScope
        let codes = arguments.allValues("application")
        let lifetime = try arguments.option("expires-in").map { text throws(UsageError) in try LifetimeText.seconds(text, option: "expires-in") }
        let terms = TokenTerms(
            scope: scope, name: arguments.option("name") ?? "", applicationCodes: codes.isEmpty ? nil : codes,
            lifetimeSeconds: lifetime)
        let token = APIToken.generate()
        let id = try admin.issueToken(accountID: account, tokenHash: token.hash, terms: terms)
        print(token.secret)
        let reach = codes.isEmpty ? "every application of account \(account)" : "applications " + codes.joined(separator: ", ")
        Console.message("issued token \(id) with scope \(scope.rawValue) for \(reach), " + (lifetime.map { "expiring in \($0) s" } ?? "never expiring"))
    }

    /// `set-token-expiry TOKEN_ID --expires-in 30d|never`.
    static func setTokenExpiry(_ arguments: Arguments, admin: AdminStore) throws {
        guard let id = Int64(arguments.positional[0]) else { throw UsageError("TOKEN_ID must be an integer") }
        let text = try arguments.requiredOption("expires-in")
        let lifetime = text == "never" ? nil : try LifetimeText.seconds(text, option: "expires-in")
        guard try admin.setTokenExpiry(id: id, lifetimeSeconds: lifetime) else { Console.fail("no live token with id \(id)", status: 1) }
        Console.message("token \(id) " + (lifetime.map { "now expires in \($0) s" } ?? "no longer expires"))
    }

    /// One tab-separated line: id, account, scope, applications (`*` for all), name (`-` when
    /// unnamed), created, expires, last used (days, UTC; `-` for none), revoked (`-` when live).
    static func tokenLine(_ token: TokenRecord) -> String {
        let day = { (text: String?) in text.map { String($0.prefix(10)) } ?? "-" }
        return [
            String(token.id), String(token.accountID), token.scope.rawValue, token.applicationCodes?.joined(separator: ",") ?? "*",
            token.name.isEmpty ? "-" : token.name, day(token.created), day(token.expires), day(token.lastUsedOn),
            token.revoked ?? "-",
        ].joined(separator: "\t")
    }
}

/// `--expires-in` values: a whole number of minutes, hours or days (`30m`, `12h`, `90d`), at
/// most ten years.
enum LifetimeText {
    static let maxSeconds: Int64 = 3650 * 86_400

    static func seconds(_ text: String, option: String) throws(UsageError) -> Int64 {
        let units: [Character: Int64] = ["m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), count > 0,
            count <= maxSeconds / unit
        else {
            throw UsageError("--\(option) must be a positive number of minutes, hours or days (e.g. 30m, 12h, 90d), at most 3650d")
        }
        return count * unit
    }
}
