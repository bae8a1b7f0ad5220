import CLibPQ

/// A statement's rows, copied into Swift storage as soon as libpq hands them over and the
/// `PGresult` cleared right there, so no C memory outlives the call and results can cross threads.
public struct PGResult: Sendable {
    /// Every row, already copied out of libpq.
    public let rows: [PGRow]
    /// Rows touched by INSERT/UPDATE/DELETE (libpq `PQcmdTuples`), 0 for other commands.
    public let affectedRows: Int

    /// An empty result, for a query string that held no statement.
    init() {
        rows = []
        affectedRows = 0
    }

    /// Takes ownership of `result`: copies everything out and `PQclear`s it, whatever happens.
    init(consuming result: OpaquePointer) {
        defer { PQclear(result) }
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        var rows: [PGRow] = []
        rows.reserveCapacity(rowCount)
        for r in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for c in 0..<columnCount {
                if PQgetisnull(result, Int32(r), Int32(c)) != 0 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, Int32(r), Int32(c)))
                    let bytes = PQgetvalue(result, Int32(r), Int32(c))
                    values.append(
                        bytes.map { pointer in
                            pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                            }
                        } ?? "")
                }
            }
            rows.append(PGRow(values: values))
        }
        self.rows = rows
        self.affectedRows = PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }
}

/// One row in text format. Accessors throw instead of trapping because a schema drift between
/// the code and the database must become a 500, not a crash of every worker.
public struct PGRow: Sendable, Equatable {
    /// Text-format values by column position; nil is SQL NULL.
    public let values: [String?]

    /// For nullable columns (`revoked_at`, a deleted version's `json_schema`).
    public func optionalString(_ column: Int) throws(PGError) -> String? {
        guard values.indices.contains(column) else {
            throw PGError(kind: .unexpectedResult, debugDetail: "no column \(column)")
        }
        return values[column]
    }

    /// For NOT NULL columns: a NULL here means the SQL and the code disagree.
    public func string(_ column: Int) throws(PGError) -> String {
        guard let value = try optionalString(column) else {
            throw PGError(kind: .unexpectedResult, debugDetail: "column \(column) is NULL")
        }
        return value
    }

    /// For `bigint` ids.
    public func int64(_ column: Int) throws(PGError) -> Int64 {
        let text = try string(column)
        guard let value = Int64(text) else {
            throw PGError(kind: .unexpectedResult, debugDetail: "column \(column) is not a bigint")
        }
        return value
    }

    /// For `integer` columns such as versions.
    public func int32(_ column: Int) throws(PGError) -> Int32 {
        let text = try string(column)
        guard let value = Int32(text) else {
            throw PGError(kind: .unexpectedResult, debugDetail: "column \(column) is not an integer")
        }
        return value
    }

    /// For `boolean` columns, which the text format sends as `t`/`f`.
    public func bool(_ column: Int) throws(PGError) -> Bool {
        switch try string(column) {
        case "t": return true
        case "f": return false
        default: throw PGError(kind: .unexpectedResult, debugDetail: "column \(column) is not a boolean")
        }
    }
}
