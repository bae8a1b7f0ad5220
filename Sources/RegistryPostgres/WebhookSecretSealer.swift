import Registry

/// Seals the webhook signing secrets still stored as issued, once the operator has set a key:
/// `serve` runs it shortly after start and then hourly, so secrets written as issued by a
/// replica that had no key yet (during a rolling deployment) are sealed too.
///
/// Each subscription is sealed by one statement that replaces a secret only if it still holds
/// the text read (compare-and-set, matched in either column), so a rotation or another replica
/// sealing at the same time is never undone: whoever writes first wins and the other's
/// statement changes nothing. It also counts the secrets sealed with a key other than this
/// one, which no delivery from this replica can sign with.
public struct WebhookSecretSealer: Sendable {
    public let pool: ConnectionPool
    public let key: WebhookSecretKey
    /// Subscriptions read per statement.
    public static let pageSize: Int64 = 500

    public init(pool: ConnectionPool, key: WebhookSecretKey) {
        self.pool = pool
        self.key = key
    }

    public struct Outcome: Sendable, Equatable {
        /// Subscriptions whose secrets this pass sealed.
        public var sealed = 0
        /// Secrets sealed with keys other than this one, by key id (8 ASCII hex digits, checked
        /// when read, for which `String` equality is byte equality).
        public var sealedWithOtherKeys: [String: Int] = [:]

        public init(sealed: Int = 0, sealedWithOtherKeys: [String: Int] = [:]) {
            self.sealed = sealed
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
                for stored in row.secrets {
                    if let keyID = WebhookSecretEnvelope.keyID(of: stored) {
                        if !keyID.utf8.elementsEqual(key.id.utf8) { outcome.sealedWithOtherKeys[keyID, default: 0] += 1 }
                    } else if !WebhookSecretEnvelope.isSealed(stored), WebhookSecret.key(of: stored) != nil {
                        replacements += [stored, WebhookSecretEnvelope.seal(stored, with: key)]
                    }
                }
                guard !replacements.isEmpty else { continue }
                while replacements.count < 4 { replacements.append(nil) }
                let changed = try pool.run(
                    StoreStatement(statement: Self.sealSecrets, parameters: [row.id] + replacements, retry: .write) { !$0.rows.isEmpty })
                if changed { outcome.sealed += 1 }
            }
            guard let last = page.last, page.count == Int(Self.pageSize) else { return outcome }
            after = last.id
        }
    }

    static let secretsPage = PGStatement(file: "webhook_secrets_page")
    static let sealSecrets = PGStatement(file: "webhook_seal_secrets")
}
