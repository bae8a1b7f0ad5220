import Registry

/// Token lookup: what a presented token may do.
extension PostgresSchemaStore {
    /// What the token with this hash may do, nil when it is unknown, revoked or expired.
    public func token(forTokenHash hash: [UInt8]) async throws -> TokenGrant? {
        try await pool.value(of: StoreStatement(statement: Self.tokenGrant, parameters: [PGBytea(hash)], onStandby: Self.tokenGrantOnStandby) {
            try $0.rows.first.map { try TokenGrant(row: $0) }
        })
    }

    /// The live, unexpired token with hash $1 and the codes of the applications it is limited
    /// to. Notes the day of use on the way: the UPDATE writes only when the day changed, so a
    /// busy token costs one write a day, not one per request (and, touching none of the
    /// columns the change trigger watches, it sends no notification).
    static let tokenGrant = PGStatement(file: "store_token_grant")
    /// The same grant without noting the day of use: a standby refuses every write, and the
    /// day is noted again by the first use once a primary answers.
    static let tokenGrantOnStandby = PGStatement(file: "store_token_grant_on_standby")
}

extension TokenGrant {
    init(row: PGRow) throws {
        let limited = try row.bool(4)
        let ids = try row.optionalString(5).map { text in text.split(separator: ",").compactMap { Int64($0) } } ?? []
        var codes: [String] = []
        if let text = try row.optionalString(6), case .array(let items) = try JSONParser.parse(Array(text.utf8)) {
            codes = items.compactMap(\.stringValue)
        }
        guard let scope = TokenScope(rawValue: try row.string(2)) else {
            throw PGError(kind: .unexpectedResult, debugDetail: "unknown token scope")
        }
        self.init(
            id: try row.int64(0), accountID: try row.int64(1), scope: scope, name: try row.string(3),
            applicationIDs: limited ? ids : nil, applicationCodes: limited ? codes : nil,
            expiresAt: try row.optionalString(7).flatMap(Double.init), expires: try row.optionalString(8))
    }
}
