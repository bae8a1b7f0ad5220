import Registry
import RegistryPostgres

extension AdminCommand {
    /// One sealing pass now, the one `serve` runs at start and hourly: after rolling out a new
    /// key, the operator runs it until it exits 0 and then removes the old key, rather than
    /// waiting for the next hourly pass. Prints `sealed N`, `resealed N`, and one line per key
    /// other than the current one that still holds secrets (`old_key ID N`, `other_key ID N`),
    /// tab-separated, by key id only; exits 1 while any secret is not under the current key.
    static func sealWebhookSecrets(keyring: WebhookSecretKeyring?, pool: ConnectionPool) throws {
        guard let keyring else { Console.fail("REGISTRY_WEBHOOK_SECRET_KEY is not set: there is no key to seal with", status: 1) }
        let outcome = try WebhookSecretSealer(pool: pool, keyring: keyring).run()
        print("sealed\t\(outcome.sealed)")
        print("resealed\t\(outcome.resealed)")
        let byID: ([String: Int]) -> [(key: String, value: Int)] = { counts in
            counts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        for (id, count) in byID(outcome.sealedWithOldKeys) { print("old_key\t\(id)\t\(count)") }
        for (id, count) in byID(outcome.sealedWithOtherKeys) { print("other_key\t\(id)\t\(count)") }
        let left = outcome.sealedWithOldKeys.values.reduce(0, +) + outcome.sealedWithOtherKeys.values.reduce(0, +)
        if left > 0 { Console.fail("\(left) webhook signing secrets are not sealed under the current key \(keyring.current.id)", status: 1) }
    }
}
