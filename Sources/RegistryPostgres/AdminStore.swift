import Registry

/// Operator tasks (accounts, applications, tokens) behind the admin CLI. The SQL is kept plain
/// enough to run by hand in psql when the CLI is not at hand.
///
/// Token secrets never reach this type: the caller generates the secret, shows it once and
/// passes only its SHA-256 digest, so a database dump cannot be used to call the API.
public struct AdminStore: Sendable {
    /// Shared with the schema store when both run in one process; the CLI makes a small one.
    public let pool: ConnectionPool

    /// Opens nothing: sessions are taken from `pool` per call.
    public init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// Returns the new account's id.
    public func createAccount(name: String) throws -> Int64 {
        try pool.perform(.never) { connection in
            try connection.execute(Self.insertAccount, [name]).rows.first.orThrow().int64(0)
        }
    }

    /// Creates an application (with its audit event) and returns its code: `code` when given, else a random
    /// `XXXXX-XXXXX` (drawn again on the unlikely collision).
    public func createApplication(accountID: Int64, code: String? = nil, name: String) throws -> String {
        if let code { try ApplicationCode.validate(code, field: "application code") }
        var generator = SystemRandomNumberGenerator()
        var attempts = 0
        while true {
            attempts += 1
            let candidate = code ?? Self.generateApplicationCode(using: &generator)
            do {
                return try pool.perform(
                    .never,
                    conflict: { error in
                        switch error.sqlState {
                        case .foreignKeyViolation?: .notFound("account \(accountID) not found")
                        case .uniqueViolation?: .alreadyExists("application code \"\(candidate)\" already exists")
                        default: nil
                        }
                    }
                ) { connection in
                    try connection.transaction {
                        let row = try connection.execute(Self.insertApplication, [candidate, name, accountID]).rows.first.orThrow()
                        try AuditLog.record(
                            AuditRecord(
                                accountID: accountID, actor: .cli, action: .applicationCreate, applicationID: try row.int64(1),
                                details: ["name": .string(name)]),
                            on: connection)
                        return try row.string(0)
                    }
                }
            } catch let error as RegistryError where error.code == .alreadyExists && code == nil && attempts < 5 {
                continue
            }
        }
    }

    /// Applications ordered by code, of one account or of all.
    public func listApplications(accountID: Int64? = nil) throws -> [Application] {
        try pool.perform(.read) { connection in
            try connection.execute(Self.selectApplications, [accountID]).rows.map { try Application(row: $0) }
        }
    }

    /// `XXXXX-XXXXX` from A–Z and 0–9: about 3.6e15 codes, so guessing one is hopeless and a
    /// collision is rare enough to simply draw again.
    public static func generateApplicationCode<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var code = ""
        for index in 0..<11 {
            code.append(index == 5 ? "-" : alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
        }
        return code
    }

    // MARK: - SQL

    static let insertAccount = PGStatement(file: "admin_insert_account")

    static let insertApplication = PGStatement(file: "admin_insert_application")

    static let selectApplications = PGStatement(file: "admin_select_applications")
}

extension Optional where Wrapped == PGRow {
    /// The row a RETURNING clause must produce.
    func orThrow() throws(PGError) -> PGRow {
        guard let row = self else { throw PGError(kind: .unexpectedResult, debugDetail: "no row returned") }
        return row
    }
}
