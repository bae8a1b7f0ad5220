import Registry

/// Version states and `latest` pins. Each change is one statement that also records its audit
/// event, so the change and its event commit together; the triggers of migration 0014 add the
/// feed event in the same statement, whichever path made the change.
extension PostgresSchemaStore {
    /// Moves a live version to the state `change` names, clearing the other state's details,
    /// with its `state_change` audit event; nil (and no event) when the version is unknown or
    /// deleted. Returns the version as it now is.
    public func changeState(
        application: Application, attributesType: String, version: Int32, to change: StateChange, by actor: AuditActor
    ) async throws -> SchemaVersion? {
        let text: String?
        let sunset: String?
        var details: JSONObject = ["state": .string(change.stateName)]
        switch change {
        case .deprecate(let message, let date):
            (text, sunset) = (message, date)
            details["message"] = .string(message)
            if let date { details["sunset"] = .string(date) }
        case .disable(let reason):
            (text, sunset) = (reason, nil)
            details["reason"] = .string(reason)
        case .restore:
            (text, sunset) = (nil, nil)
        }
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .stateChange, applicationID: application.id,
            attributesType: attributesType, version: version, details: details)
        let parameters: [(any PGParameter)?] = [application.id, attributesType, version, change.stateName, text, sunset, Self.actorName(actor)]
        return try await pool.value(
            of: StoreStatement(statement: Self.changeStateStatement, parameters: parameters + event.parameters, retry: .write, feedsChanges: true) {
                try $0.rows.first.map { try Self.storedVersion($0, application: application, attributesType: attributesType, version: version) }
            })
    }

    /// Pins the type's `latest` to a live version that is not disabled, with its `latest_pin`
    /// audit event; false (and no event) when there is no such version.
    public func pinLatest(application: Application, attributesType: String, version: Int32, by actor: AuditActor) async throws -> Bool {
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .latestPin, applicationID: application.id,
            attributesType: attributesType, version: version, details: ["pinned": .bool(true)])
        let parameters: [(any PGParameter)?] = [application.id, attributesType, version, Self.actorName(actor)]
        return try await pool.value(
            of: StoreStatement(statement: Self.pinLatestStatement, parameters: parameters + event.parameters, retry: .write, feedsChanges: true) {
                !$0.rows.isEmpty
            })
    }

    /// Removes the type's pin with its `latest_pin` audit event; the version it named, or nil
    /// (and no event) when there was none.
    public func unpinLatest(application: Application, attributesType: String, by actor: AuditActor) async throws -> Int32? {
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .latestPin, applicationID: application.id,
            attributesType: attributesType, details: ["pinned": .bool(false)])
        let parameters: [(any PGParameter)?] = [application.id, attributesType]
        return try await pool.value(
            of: StoreStatement(statement: Self.unpinLatestStatement, parameters: parameters + event.parameters, retry: .write, feedsChanges: true) {
                try $0.rows.first.map { row throws(PGError) in try row.int32(0) }
            })
    }

    public func latestCandidates(application: Application, attributesType: String) async throws -> LatestCandidates {
        try await pool.value(of: Self.latestCandidatesRead(application: application, attributesType: attributesType))
    }

    /// Who a state or pin names as having made it: the token's name (or `token <id>`), else `cli`.
    static func actorName(_ actor: AuditActor) -> String {
        actor.createdBy ?? actor.kind.rawValue
    }

    /// What `latest` chooses from, in one snapshot: the pin when it names a live version that is
    /// not disabled, the newest active version and the newest deprecated one. A standby may
    /// answer it (`StandbyReads`), except "none", which the primary confirms.
    static func latestCandidatesRead(application: Application, attributesType: String) -> StoreStatement<LatestCandidates> {
        StoreStatement(
            statement: latestCandidatesStatement, parameters: [application.id, attributesType],
            standbyRead: StandbyRead(application: application.id) { $0.latest == nil }
        ) { result in
            guard let row = result.rows.first else { throw PGError(kind: .unexpectedResult, debugDetail: "no row") }
            func number(_ column: Int) throws(PGError) -> Int32? {
                try row.optionalString(column) == nil ? nil : try row.int32(column)
            }
            return LatestCandidates(pinned: try number(0), newestActive: try number(1), newestDeprecated: try number(2))
        }
    }

    /// $4 the state, $5 the message or reason, $6 the sunset (RFC 3339, cast by the database),
    /// $7 who; then the audit event's arguments.
    static let changeStateStatement = PGStatement(file: "store_change_state")
    /// Locks the pinned version's row (FOR SHARE) so a concurrent delete or disable waits for
    /// the pin, which `latest` then no longer follows.
    static let pinLatestStatement = PGStatement(file: "store_pin_latest")
    static let unpinLatestStatement = PGStatement(file: "store_unpin_latest")
    static let latestCandidatesStatement = PGStatement(file: "store_latest_candidates")
}
