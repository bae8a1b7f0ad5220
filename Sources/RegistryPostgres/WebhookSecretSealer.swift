import Registry

/// Keeps every webhook signing secret sealed under the current key: `serve` runs it shortly
/// after start and then hourly. It seals the secrets still stored as issued (written by a
/// replica that had no key yet, during a rolling deployment) and re-seals the secrets sealed
/// with one of the keyring's old keys (`REGISTRY_WEBHOOK_SECRET_OLD_KEYS`) under the current
/// one, so that after a rotation the old key can be removed once a pass finds none left.
///
/// Each subscription is changed by one statement that replaces a secret only if it still
/// holds the text read (compare-and-set, matched in either column), so a rotation or another
/// replica sealing at the same time is never undone: whoever writes first wins and the other's
/// statement changes nothing. Sealing and re-sealing are the same statement: both replace a
/// stored form with the same secret sealed under the current key. The secret itself does not
/// change, so neither writes an audit event (as the rotation that changes it does). The pass
/// also counts the secrets sealed with keys the keyring does not hold, which no delivery from
/// this replica can sign with.
public struct WebhookSecretSealer: Sendable {
    public let pool: ConnectionPool
    public let keyring: WebhookSecretKeyring
    /// Subscriptions read per statement.
    public static let pageSize: Int64 = 500

    public init(pool: ConnectionPool, keyring: WebhookSecretKeyring) {
        self.pool = pool
        self.keyring = keyring
    }

    /// A keyring of `key` alone.
    public init(pool: ConnectionPool, key: WebhookSecretKey) {
        self.init(pool: pool, keyring: WebhookSecretKeyring(current: key))
    }

    public struct Outcome: Sendable, Equatable {
        /// Subscriptions with a secret stored as issued that this pass sealed.
        public var sealed = 0
        /// Subscriptions with a secret sealed with an old key that this pass re-sealed under
        /// the current key.
        public var resealed = 0
        /// Secrets still sealed with an old key after the pass, by key id: another writer
        /// changed them between the read and the write (the next pass re-seals them), or they
        /// do not open (damaged).
        public var sealedWithOldKeys: [String: Int] = [:]
        /// Secrets sealed with keys the keyring does not hold, by key id (8 ASCII hex digits,
        /// checked when read, for which `String` equality is byte equality).
        public var sealedWithOtherKeys: [String: Int] = [:]

        public init(sealed: Int = 0, resealed: Int = 0, sealedWithOldKeys: [String: Int] = [:], sealedWithOtherKeys: [String: Int] = [:]) {
            self.sealed = sealed
            self.resealed = resealed
            self.sealedWithOldKeys = sealedWithOldKeys
            self.sealedWithOtherKeys = sealedWithOtherKeys
        }
    }

    public func run() throws -> Outcome {
        var outcome = Outcome()
        var after: Int64 = 0
        while true {
            let page = try pool.run(
                StoreStatement(statement: Self.secretsPage, parameters: [after, Self.pageSize]) { result in
                    try result.rows.map { row in (id: try row.int64(0), secrets: [try row.string(1), try row.optionalString(2)].compactMap { $0 }) }
                })
            for row in page {
                var replacements: [(any PGParameter)?] = []
                var plain = false
                var oldKeys: [String] = []
                for stored in row.secrets {
                    if let keyID = WebhookSecretEnvelope.keyID(of: stored) {
                        if keyring.isOld(id: keyID) {
                            do throws(WebhookSecretUnreadable) {
                                let secret = try WebhookSecretEnvelope.open(stored, keyring: keyring)
                                replacements += [stored, WebhookSecretEnvelope.seal(secret, with: keyring.current)]
                                oldKeys.append(keyID)
                            } catch {
                                // Damaged: left as it is (a delivery reports why), and counted
                                // as still under the old key, which cannot be removed unnoticed.
                                outcome.sealedWithOldKeys[keyID, default: 0] += 1
                            }
                        } else if keyring.key(id: keyID) == nil {
                            outcome.sealedWithOtherKeys[keyID, default: 0] += 1
                        }
                    } else if !WebhookSecretEnvelope.isSealed(stored), WebhookSecret.key(of: stored) != nil {
                        replacements += [stored, WebhookSecretEnvelope.seal(stored, with: keyring.current)]
                        plain = true
                    }
                }
                guard !replacements.isEmpty else { continue }
                while replacements.count < 4 { replacements.append(nil) }
                // The columns as written, or nil when neither still held what was read.
                let written = try pool.run(
                    StoreStatement(statement: Self.sealSecrets, parameters: [row.id] + replacements, retry: .write) { result in
                        try result.rows.first.map { [try $0.string(0), try $0.optionalString(1)].compactMap { $0 } }
                    })
                guard let written else {
                    for keyID in oldKeys { outcome.sealedWithOldKeys[keyID, default: 0] += 1 }
                    continue
                }
                if plain { outcome.sealed += 1 }
                if !oldKeys.isEmpty { outcome.resealed += 1 }
                for keyID in written.compactMap(WebhookSecretEnvelope.keyID(of:)) where keyring.isOld(id: keyID) {
                    outcome.sealedWithOldKeys[keyID, default: 0] += 1
                }
            }
            guard let last = page.last, page.count == Int(Self.pageSize) else { return outcome }
            after = last.id
        }
    }

    static let secretsPage = PGStatement(file: "webhook_secrets_page")
    static let sealSecrets = PGStatement(file: "webhook_seal_secrets")
}
