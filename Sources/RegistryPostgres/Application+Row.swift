import Registry

extension Application {
    /// Reads the columns every application statement selects, in this order: id, code, name,
    /// account_id, created (RFC 3339 UTC text).
    init(row: PGRow) throws(PGError) {
        self.init(
            id: try row.int64(0), code: try row.string(1), name: try row.string(2), accountID: try row.int64(3),
            created: try row.string(4))
    }
}
