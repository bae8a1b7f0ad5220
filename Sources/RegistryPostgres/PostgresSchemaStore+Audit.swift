import Registry

/// Reading the audit trail (writes go through `AuditLog` inside each change's transaction).
extension PostgresSchemaStore {
    /// The events matching `query`, in its order; newest first is read per application only
    /// (along its index), so a query without one is refused before anything is sent.
    public func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent] {
        let filters: [(any PGParameter)?] = [
            query.attributesType, query.action?.rawValue, query.since, query.until, query.cursor, Int64(max(0, query.limit)),
        ]
        let (statement, parameters): (PGStatement, [(any PGParameter)?])
        switch query.order {
        case .newestFirst:
            guard let applicationID = query.applicationID else {
                throw RegistryError.internal("newest-first audit reads are per application")
            }
            let budgets: [(any PGParameter)?] = [
                Int64(AuditQuery.maxEventDetailsBytes), Int64(query.pageBytes.map { max(0, $0) } ?? Int(Int64.max)),
            ]
            (statement, parameters) = (Self.auditOfApplication, [applicationID] + filters + budgets)
        case .oldestFirst:
            (statement, parameters) = (Self.auditOldestFirst, [query.accountID] + filters)
        }
        return try await pool.value(of: StoreStatement(statement: statement, parameters: parameters) { result in
            try result.rows.map { try AuditEvent(row: $0) }
        })
    }

    // Both read the columns `AuditEvent(row:)` reads; $2 type, $3 action, $4/$5 time range (Unix
    // seconds), $6 cursor id, $7 limit.

    /// Newest first along the index `audit_events_application (application_id, id DESC)`; $8
    /// the largest details shown, $9 the page's details bytes (`AuditQuery.pageBytes`).
    static let auditOfApplication = PGStatement(file: "store_audit_of_application")

    /// Oldest first, of one account ($1) or of all (NULL), for the CLI's log-like output.
    static let auditOldestFirst = PGStatement(file: "store_audit_oldest_first")
}

extension AuditEvent {
    init(row: PGRow) throws {
        let details = Array(try row.string(11).utf8)
        guard let actor = AuditActor.Kind(rawValue: try row.string(3)), let action = AuditAction(rawValue: try row.string(6)) else {
            throw PGError(kind: .unexpectedResult, debugDetail: "unknown audit actor or action")
        }
        self.init(
            id: try row.int64(0), at: try row.string(1), accountID: try row.int64(2), actor: actor,
            tokenID: try row.optionalString(4).flatMap { Int64($0) }, tokenName: try row.string(5), action: action,
            applicationCode: try row.optionalString(7), attributesType: try row.optionalString(8),
            version: try row.optionalString(9).flatMap { Int32($0) }, requestID: try row.optionalString(10),
            details: try JSONParser.parse(details), detailsBytes: details.count)
    }
}
