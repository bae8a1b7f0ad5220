import Registry

/// Export and import of one application's versions (with their states), retired numbers,
/// counters, `latest` pins and policies (`schema-registry admin export|import`).
///
/// An import is one transaction that holds each type's counter row, the lock every publish
/// takes first, so publishes on live replicas wait for it instead of racing it. Numbers are
/// kept as they were; a number already present with other content (another text, or deleted
/// on one side only) is a conflict, and any conflict writes nothing. Importing what is already
/// there writes nothing either, not even an audit event.
public struct ApplicationTransfer: Sendable {
    public let pool: ConnectionPool
    /// Seals the fresh secrets of imported webhooks; nil stores them as issued.
    public let webhookSecretKey: WebhookSecretKey?

    public init(pool: ConnectionPool, webhookSecretKey: WebhookSecretKey? = nil) {
        self.pool = pool
        self.webhookSecretKey = webhookSecretKey
    }

    /// What an import did or, with conflicts or in a dry run, would have done.
    public struct Outcome: Sendable, Equatable {
        /// One line per conflicting number, naming the type and version.
        public var conflicts: [String] = []
        public var versionsAdded = 0
        public var retiredAdded = 0
        public var countersRaised = 0
        public var policiesChanged = 0
        /// Versions whose state the file changed (new versions that are not active included).
        public var statesChanged = 0
        public var pinsChanged = 0
        public var metadataChanged = 0
        /// Subscriptions added, disabled and with a fresh secret (see `importWebhook`).
        public var webhooksAdded = 0

        public var changesAnything: Bool {
            versionsAdded + retiredAdded + countersRaised + policiesChanged + statesChanged + pinsChanged + metadataChanged
                + webhooksAdded > 0
        }
    }

    public func export(applicationCode code: String) throws -> ApplicationExport {
        try pool.perform(.read) { connection in
            // One snapshot for all reads, so the document is consistent.
            try connection.simpleQuery("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { if connection.isUsable { _ = try? connection.simpleQuery("ROLLBACK") } }
            let application = try Self.application(code, connection)
            // Keyed by the name's bytes: canonically equivalent type names are two types.
            var versions: [ExactName: (live: [ApplicationExport.LiveVersion], retired: [Int32])] = [:]
            for row in try connection.execute(Self.exportVersions, [application.id]).rows {
                let type = ExactName(try row.string(0))
                let number = try row.int32(1)
                if let text = try row.optionalString(2) {
                    let (metadata, warnings) = try PostgresSchemaStore.versionMetadata(row, from: 13)
                    let live = ApplicationExport.LiveVersion(
                        version: number, jsonSchema: text, created: try row.string(3), createdBy: try row.optionalString(4),
                        state: try Self.exportedState(row), metadata: metadata, warnings: warnings)
                    versions[type, default: ([], [])].live.append(live)
                } else {
                    versions[type, default: ([], [])].retired.append(number)
                }
            }
            let types = try connection.execute(Self.exportCounters, [application.id]).rows.map { row in
                let type = ExactName(try row.string(0))
                return ApplicationExport.TypeHistory(
                    attributesType: type.text, lastVersion: try row.int32(1), versions: versions[type]?.live ?? [],
                    retired: versions[type]?.retired ?? [],
                    latestPin: try row.optionalString(2) == nil ? nil : try row.int32(2), metadata: try Self.movedMetadata(row))
            }
            let policies = try connection.execute(Self.exportPolicies, [application.id]).rows.map { row in
                ApplicationExport.Policy(
                    attributesType: try row.string(0), mode: try row.string(1), enforce: try row.string(2),
                    oldestSupportedVersion: try row.int32(3))
            }
            let webhooks = try connection.execute(Self.exportWebhooks, [application.id]).rows.map { row in
                ApplicationExport.Webhook(
                    url: try row.string(0), events: try row.string(1).split(separator: ",").compactMap { ChangeKind(rawValue: String($0)) },
                    typePrefix: try row.string(2), description: try row.string(3))
            }
            return ApplicationExport(application: application.code, types: types, policies: policies, webhooks: webhooks)
        }
    }

    /// Applies `document` to the application `code` in one transaction, committed only when
    /// there is no conflict, something changes, and this is not a dry run. The audit event
    /// (actor `cli`, action `import`) commits with it.
    public func importing(_ document: ApplicationExport, intoApplicationCode code: String, dryRun: Bool) throws -> Outcome {
        for type in document.types {
            for version in type.versions {
                do {
                    _ = try SchemaRules.validate(version.jsonSchema)
                } catch {
                    throw RegistryError.invalidArgument("\(type.attributesType) version \(version.version): \(error.message)")
                }
            }
        }
        return try pool.perform(.never) { connection in
            try connection.simpleQuery("BEGIN")
            do {
                let application = try Self.application(code, connection)
                let outcome = try apply(document, to: application, connection)
                if dryRun || !outcome.conflicts.isEmpty || !outcome.changesAnything {
                    try connection.simpleQuery("ROLLBACK")
                } else {
                    let details: JSONObject = [
                        "from_application": .string(document.application),
                        "versions_added": .number(String(outcome.versionsAdded)),
                        "retired_added": .number(String(outcome.retiredAdded)),
                        "policies_changed": .number(String(outcome.policiesChanged)),
                        "states_changed": .number(String(outcome.statesChanged)),
                        "pins_changed": .number(String(outcome.pinsChanged)),
                        "metadata_changed": .number(String(outcome.metadataChanged)),
                        "webhooks_added": .number(String(outcome.webhooksAdded)),
                    ]
                    try AuditLog.record(
                        AuditRecord(
                            accountID: application.accountID, actor: .cli, action: .import, applicationID: application.id,
                            details: details),
                        on: connection)
                    try connection.simpleQuery("COMMIT")
                }
                return outcome
            } catch {
                if connection.isUsable { _ = try? connection.simpleQuery("ROLLBACK") }
                throw error
            }
        }
    }

    private func apply(_ document: ApplicationExport, to application: Application, _ connection: PGConnection) throws -> Outcome {
        var outcome = Outcome()
        // Counter locks in one order (bytes, as the "C" collation sorts), whatever the file's
        // order, so two imports cannot deadlock on each other.
        let types = document.types.sorted { $0.attributesType.utf8.lexicographicallyPrecedes($1.attributesType.utf8) }
        for type in types {
            let name = type.attributesType
            // The counter row first: the lock publishes take, then the rows under it.
            if try !connection.execute(Self.raiseCounter, [application.id, name, type.lastVersion]).rows.isEmpty {
                outcome.countersRaised += 1
            }
            var existing: [Int32: Existing] = [:]
            for row in try connection.execute(Self.existingVersions, [application.id, name]).rows {
                existing[try row.int32(0)] = try row.optionalString(1).map { .live(Array($0.utf8)) } ?? .retired
            }
            for version in type.versions {
                switch existing[version.version] {
                case nil:
                    // With its field paths for search, as a publish stores them (the text passed the rules above).
                    let paths = FormBuilder.form(for: try SchemaRules.readStored(version.jsonSchema)).fieldPaths
                    try connection.execute(
                        Self.insertLive,
                        [application.id, name, version.version, version.jsonSchema, version.created, version.createdBy]
                            + PostgresSchemaStore.metadataParameters(version.metadata)
                            + [JSONWriter.string(.array(version.warnings)), PostgresSchemaStore.fieldPathsParameter(paths)])
                    outcome.versionsAdded += 1
                    if try Self.setState(version, of: name, in: application, connection) { outcome.statesChanged += 1 }
                case .live(let text)? where text == Array(version.jsonSchema.utf8):
                    if try Self.setState(version, of: name, in: application, connection) { outcome.statesChanged += 1 }
                case .live?:
                    outcome.conflicts.append("\(name) version \(version.version): exists here with other content")
                case .retired?:
                    outcome.conflicts.append("\(name) version \(version.version): deleted here, live in the file")
                }
            }
            for number in type.retired {
                switch existing[number] {
                case nil:
                    try connection.execute(Self.insertRetired, [application.id, name, number])
                    outcome.retiredAdded += 1
                case .retired?:
                    break
                case .live?:
                    outcome.conflicts.append("\(name) version \(number): live here, deleted in the file")
                }
            }
            // A pin in the file replaces the target's; a type without one keeps its pin.
            if let pin = type.latestPin, try !connection.execute(Self.upsertPin, [application.id, name, pin]).rows.isEmpty {
                outcome.pinsChanged += 1
            }
        }
        for type in types where !type.metadata.isEmpty {
            let metadata = type.metadata
            let parameters: [(any PGParameter)?] = [
                application.id, type.attributesType, metadata.description, metadata.owner, JSONWriter.string(.object(metadata.labels)),
                JSONWriter.string(metadata.linksJSON),
            ]
            if try !connection.execute(Self.upsertTypeMetadata, parameters).rows.isEmpty { outcome.metadataChanged += 1 }
        }
        for policy in document.policies {
            let parameters: [(any PGParameter)?] = [
                application.id, policy.attributesType, policy.mode, policy.enforce, policy.oldestSupportedVersion,
            ]
            if try !connection.execute(Self.upsertPolicy, parameters).rows.isEmpty { outcome.policiesChanged += 1 }
        }
        for webhook in document.webhooks {
            // Secrets never leave an environment: an imported subscription gets a secret no one
            // has seen, so it starts disabled until an operator rotates the secret (which shows
            // it) and enables it. One with the same URL, events and prefix already here is kept.
            let parameters: [(any PGParameter)?] = [
                application.id, webhook.url, PostgresSchemaStore.eventList(webhook.events), webhook.typePrefix, webhook.description,
                WebhookSecretEnvelope.stored(WebhookSecret.generate(), key: webhookSecretKey),
            ]
            if try !connection.execute(Self.importWebhook, parameters).rows.isEmpty { outcome.webhooksAdded += 1 }
        }
        return outcome
    }

    /// Gives a live version the file's state; true when that changed it.
    private static func setState(
        _ version: ApplicationExport.LiveVersion, of name: String, in application: Application, _ connection: PGConnection
    ) throws -> Bool {
        var columns: [(any PGParameter)?] = [version.state.name, nil, nil, nil, nil, nil, nil, nil]
        switch version.state {
        case .active: break
        case .deprecated(let message, let sunset, let at, let by): columns[1...4] = [message, sunset, at, by]
        case .disabled(let reason, let at, let by): columns[5...7] = [reason, at, by]
        }
        return try !connection.execute(setStateStatement, [application.id, name, version.version] + columns).rows.isEmpty
    }

    /// The state columns of `exportVersions` (from column 5 on), as the file keeps them.
    private static func exportedState(_ row: PGRow) throws(PGError) -> ApplicationExport.ExportedState {
        switch try row.string(5) {
        case "deprecated":
            return .deprecated(message: try row.string(6), sunset: try row.optionalString(7), at: try row.string(8), by: try row.string(9))
        case "disabled":
            return .disabled(reason: try row.string(10), at: try row.string(11), by: try row.string(12))
        default:
            return .active
        }
    }

    /// A type's metadata as it moves: without the time of its last change, which the import
    /// sets anew.
    private static func movedMetadata(_ row: PGRow) throws -> TypeMetadata {
        let stored = try PostgresSchemaStore.typeMetadata(row, from: 3)
        return TypeMetadata(description: stored.description, owner: stored.owner, labels: stored.labels, links: stored.links)
    }

    /// A number already taken in the target: its text as bytes, or deleted.
    private enum Existing {
        case live([UInt8])
        case retired
    }

    private static func application(_ code: String, _ connection: PGConnection) throws -> Application {
        guard let row = try connection.execute(PostgresSchemaStore.applicationByCode, [code]).rows.first else {
            throw RegistryError.notFound("application \(JSONWriter.string(.string(code))) not found")
        }
        return try Application(row: row)
    }

    // MARK: - SQL

    static let exportVersions = PGStatement(file: "transfer_export_versions")

    static let exportCounters = PGStatement(file: "transfer_export_counters")

    static let exportPolicies = PGStatement(file: "transfer_export_policies")

    static let exportWebhooks = PGStatement(file: "transfer_export_webhooks")

    static let importWebhook = PGStatement(file: "transfer_insert_webhook")

    /// Creates or raises (never lowers) a type's counter and locks it; a row back means it changed.
    static let raiseCounter = PGStatement(file: "transfer_raise_counter")

    static let existingVersions = PGStatement(file: "transfer_existing_versions")

    static let insertLive = PGStatement(file: "transfer_insert_live")

    static let insertRetired = PGStatement(file: "transfer_insert_retired")

    /// A row back means the state changed; the same state (message, sunset, reason) is left alone.
    static let setStateStatement = PGStatement(file: "transfer_set_state")

    /// A row back means the pin was created or moved.
    static let upsertPin = PGStatement(file: "transfer_upsert_pin")

    /// A row back means the policy was created or changed; an identical one is left alone.
    static let upsertPolicy = PGStatement(file: "transfer_upsert_policy")

    static let upsertTypeMetadata = PGStatement(file: "transfer_upsert_type_metadata")
}
