import Registry

/// Token administration. Issuing, revoking and changing an expiry each write their audit event
/// (actor `cli`) in the same transaction.
extension AdminStore {
    /// Stores the digest of a new token with its terms and returns the token's id. The
    /// applications must belong to the account (404 naming the code otherwise).
    public func issueToken(accountID: Int64, tokenHash: [UInt8], terms: TokenTerms = TokenTerms()) throws -> Int64 {
        guard tokenHash.count == 32 else {
            throw RegistryError.invalidArgument("tokenHash must be a 32-byte SHA-256 digest")
        }
        try TokenTerms.validateName(terms.name)
        if let lifetime = terms.lifetimeSeconds, lifetime <= 0 {
            throw RegistryError.invalidArgument("expiry must be in the future")
        }
        return try pool.perform(
            .never,
            conflict: { error in
                switch error.sqlState {
                case .foreignKeyViolation?: .notFound("account \(accountID) not found")
                case .uniqueViolation?: .alreadyExists("a token with this hash already exists")
                default: nil
                }
            }
        ) { connection in
            try connection.transaction {
                let applicationIDs = try terms.applicationCodes.map { codes in
                    try codes.map { code in try Self.applicationID(code: code, accountID: accountID, on: connection) }
                }
                let row = try connection.execute(
                    Self.insertToken,
                    [
                        accountID, PGBytea(tokenHash), terms.scope.rawValue, terms.name,
                        applicationIDs.map { $0.map(String.init).joined(separator: ",") }, terms.lifetimeSeconds,
                    ]
                ).rows.first.orThrow()
                let id = try row.int64(0)
                var details: JSONObject = [
                    "token": .number(String(id)), "scope": .string(terms.scope.rawValue), "name": .string(terms.name),
                ]
                details["applications"] = terms.applicationCodes.map { .array($0.map { .string($0) }) } ?? .null
                details["expires"] = try row.optionalString(1).map { .string($0) } ?? .null
                try AuditLog.record(AuditRecord(accountID: accountID, actor: .cli, action: .tokenIssue, details: details), on: connection)
                return id
            }
        }
    }

    /// Revokes a token for good. False when there is no such token or it was already revoked.
    public func revokeToken(id: Int64) throws -> Bool {
        try pool.perform(.never) { connection in
            try connection.transaction {
                guard let row = try connection.execute(Self.revoke, [id]).rows.first else { return false }
                try AuditLog.record(
                    AuditRecord(
                        accountID: try row.int64(0), actor: .cli, action: .tokenRevoke,
                        details: ["token": .number(String(id)), "name": .string(try row.string(1))]),
                    on: connection)
                return true
            }
        }
    }

    /// Sets when a live token expires (`lifetimeSeconds` from now; nil: never). Every replica
    /// drops its cached lookup through the change notification. False when there is no such
    /// live token.
    public func setTokenExpiry(id: Int64, lifetimeSeconds: Int64?) throws -> Bool {
        try pool.perform(.never) { connection in
            try connection.transaction {
                guard let row = try connection.execute(Self.updateExpiry, [id, lifetimeSeconds]).rows.first else { return false }
                var details: JSONObject = ["token": .number(String(id))]
                details["expires"] = try row.optionalString(1).map { .string($0) } ?? .null
                try AuditLog.record(
                    AuditRecord(accountID: try row.int64(0), actor: .cli, action: .tokenExpiryChange, details: details),
                    on: connection)
                return true
            }
        }
    }

    /// Token records (never secrets) ordered by id, of one account or of all.
    public func listTokens(accountID: Int64? = nil) throws -> [TokenRecord] {
        try pool.perform(.read) { connection in
            try connection.execute(Self.selectTokens, [accountID]).rows.map { row in
                var codes: [String]?
                if let text = try row.optionalString(6), case .array(let items) = try JSONParser.parse(Array(text.utf8)) {
                    codes = items.compactMap(\.stringValue)
                }
                return TokenRecord(
                    id: try row.int64(0), accountID: try row.int64(1), created: try row.string(2),
                    revoked: try row.optionalString(3), scope: TokenScope(rawValue: try row.string(4)) ?? .read,
                    name: try row.string(5), applicationCodes: codes, expires: try row.optionalString(7),
                    lastUsedOn: try row.optionalString(8))
            }
        }
    }

    private static func applicationID(code: String, accountID: Int64, on connection: PGConnection) throws -> Int64 {
        guard let row = try connection.execute(applicationOfAccount, [code, accountID]).rows.first else {
            throw RegistryError.notFound("application \(JSONWriter.string(.string(code))) not found in account \(accountID)")
        }
        return try row.int64(0)
    }

    // MARK: - SQL

    static let applicationOfAccount = PGStatement(file: "admin_application_of_account")

    static let insertToken = PGStatement(file: "admin_insert_token")

    static let revoke = PGStatement(file: "admin_revoke_token")

    static let updateExpiry = PGStatement(file: "admin_update_token_expiry")

    static let selectTokens = PGStatement(file: "admin_select_tokens")
}
