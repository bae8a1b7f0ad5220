import Registry

/// Export and import of one application's versions, retired numbers, counters and policies
/// (`schema-registry admin export|import`).
///
/// An import is one transaction that holds each type's counter row, the lock every publish
/// takes first, so publishes on live replicas wait for it instead of racing it. Numbers are
/// kept as they were; a number already present with other content (another text, or deleted
/// on one side only) is a conflict, and any conflict writes nothing. Importing what is already
/// there writes nothing either, not even an audit event.
public struct ApplicationTransfer: Sendable {
    public let pool: ConnectionPool

    public init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// What an import did or, with conflicts or in a dry run, would have done.
    public struct Outcome: Sendable, Equatable {
        /// One line per conflicting number, naming the type and version.
        public var conflicts: [String] = []
        public var versionsAdded = 0
        public var retiredAdded = 0
        public var countersRaised = 0
        public var policiesChanged = 0
        /// Subscriptions added, disabled and with a fresh secret (see `importWebhook`).
        public var webhooksAdded = 0

        public var changesAnything: Bool { versionsAdded + retiredAdded + countersRaised + policiesChanged + webhooksAdded > 0 }
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
                    let live = ApplicationExport.LiveVersion(
                        version: number, jsonSchema: text, created: try row.string(3), createdBy: try row.optionalString(4))
                    versions[type, default: ([], [])].live.append(live)
                } else {
                    versions[type, default: ([], [])].retired.append(number)
                }
            }
            let types = try connection.execute(Self.exportCounters, [application.id]).rows.map { row in
                let type = ExactName(try row.string(0))
                return ApplicationExport.TypeHistory(
                    attributesType: type.text, lastVersion: try row.int32(1), versions: versions[type]?.live ?? [],
                    retired: versions[type]?.retired ?? [])
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
                    try connection.execute(
                        Self.insertLive, [application.id, name, version.version, version.jsonSchema, version.created, version.createdBy])
                    outcome.versionsAdded += 1
                case .live(let text)? where text == Array(version.jsonSchema.utf8):
                    break
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
                WebhookSecret.generate(),
            ]
            if try !connection.execute(Self.importWebhook, parameters).rows.isEmpty { outcome.webhooksAdded += 1 }
        }
        return outcome
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

    /// A row back means the policy was created or changed; an identical one is left alone.
    static let upsertPolicy = PGStatement(file: "transfer_upsert_policy")
}
