import Registry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A migration recorded in `schema_migrations`.
public struct AppliedMigration: Sendable, Equatable {
    /// The migration's number as recorded.
    public let version: Int
    /// The file name part recorded when it was applied.
    public let name: String
    /// RFC 3339 UTC, to tell when a deploy migrated the database.
    public let appliedAt: String
    /// SHA-256 (hex) of the file as applied; nil until a `migrate` of this build records it.
    public let checksum: String?
}

/// Applied versus available migrations, so the server can refuse to start on a database older
/// than its code and readiness can report the same.
public struct MigrationStatus: Sendable, Equatable {
    /// What the database has recorded, in version order.
    public let applied: [AppliedMigration]
    /// What this build ships, in version order.
    public let available: [Migration]
    /// Applied migrations whose file no longer has the checksum recorded when it was applied.
    public let edited: [Migration]

    /// Shipped but not yet applied: what `migrate` would apply.
    public var pending: [Migration] {
        let done = Set(applied.map(\.version))
        return available.filter { !done.contains($0.version) }
    }

    /// True when every shipped migration is applied; a newer database (versions applied that
    /// this build does not know) still counts, so an older build can keep serving during a
    /// rolling deploy.
    public var isUpToDate: Bool { pending.isEmpty }

    /// What to tell the operator when a migration file was edited after it was applied or the
    /// database is behind, or nil when all is well.
    public var problem: String? {
        if let edited = edited.first { return MigrationError.edited(edited).description }
        guard !isUpToDate else { return nil }
        let appliedCount = available.count - pending.count
        return "database is not migrated: run `schema-registry migrate` (applied \(appliedCount) of \(available.count))"
    }
}

/// Applies `NNNN_name.sql` files in order, each in its own transaction, recording them in
/// `schema_migrations`. Several replicas may start `migrate` at once: a session-level advisory
/// lock makes them take turns, and the later ones find nothing pending.
public struct Migrator: Sendable {
    /// Sessions come from the service's pool, so migrating and status checks obey its limits.
    public let pool: ConnectionPool
    /// Where the `NNNN_name.sql` files are; see `locateDirectory`.
    public let directory: String

    /// Fixed advisory-lock key shared by every build ("LASR" schema registry); any constant
    /// works as long as it never changes.
    public static let advisoryLockKey: Int64 = 0x4C41_5352_4D49_4752

    /// Reads nothing yet: files are listed on each call, so a status check sees what is deployed.
    public init(pool: ConnectionPool, directory: String) {
        self.pool = pool
        self.directory = directory
    }

    /// The migration files in the directory, in order.
    public func available() throws -> [Migration] {
        let files = try MigrationFiles.list(in: directory)
        guard !files.isEmpty else { throw MigrationError.noMigrations(directory) }
        return files
    }

    /// Applies every pending migration and returns those applied by this call (empty when the
    /// database was already current). Timeouts are lifted for the duration: waiting for another
    /// replica's lock or running DDL can take long, and an operator runs this deliberately.
    @discardableResult
    public func migrate() throws -> [Migration] {
        let files = try available()
        return try Self.surfacingUnavailable { try pool.withConnection { connection in
            try connection.withoutTimeouts {
                try run(connection) { try connection.execute(Self.lock, [Self.advisoryLockKey]) }
                defer {
                    do {
                        try connection.execute(Self.unlock, [Self.advisoryLockKey])
                    } catch {
                        // Never hand back a session that may still hold the lock.
                        connection.invalidate()
                    }
                }
                try run(connection) {
                    try connection.simpleQuery(Self.createTable.sql)
                    try connection.simpleQuery(Self.addChecksumColumn.sql)
                }
                let recorded = try run(connection) { try appliedChecksums(connection) }
                if let edited = try Self.edited(files, recorded: recorded).first { throw MigrationError.edited(edited) }
                // Rows recorded before checksums existed take the checksum of the file as it is now.
                for migration in files {
                    guard let entry = recorded[migration.version], entry == nil else { continue }
                    let checksum = try MigrationFiles.checksum(migration.path)
                    try run(connection) { try connection.execute(Self.backfillChecksum, [migration.version, checksum]) }
                }
                var appliedNow: [Migration] = []
                for migration in files where recorded[migration.version] == nil {
                    let bytes = try MigrationFiles.read(migration.path)
                    do {
                        try connection.transaction {
                            try connection.simpleQuery(String(decoding: bytes, as: UTF8.self))
                            try connection.execute(
                                Self.record, [migration.version, migration.name, SHA256.hexHash(bytes)])
                        }
                    } catch let error as PGError {
                        throw MigrationError.failed(migration, error)
                    }
                    appliedNow.append(migration)
                }
                return appliedNow
            }
        } }
    }

    /// Applied versus available, and which applied files were edited since, without changing
    /// anything (no lock, no table creation; a table without the checksum column reads as
    /// checksums not yet recorded).
    public func status() throws -> MigrationStatus {
        let files = try available()
        let applied = try Self.surfacingUnavailable { try pool.withConnection(retry: .read) { connection in
            try run(connection) { () throws -> [AppliedMigration] in
                guard try connection.execute(Self.tableExists).rows.first?.bool(0) == true else { return [] }
                return try connection.execute(Self.appliedList).rows.map { row in
                    AppliedMigration(
                        version: Int(try row.int32(0)), name: try row.string(1), appliedAt: try row.string(2),
                        checksum: try row.optionalString(3))
                }
            }
        } }
        let recorded = Dictionary(applied.map { ($0.version, $0.checksum) }, uniquingKeysWith: { first, _ in first })
        return MigrationStatus(applied: applied, available: files, edited: try Self.edited(files, recorded: recorded))
    }

    /// Each applied version with its recorded checksum (nil: recorded before checksums existed).
    private func appliedChecksums(_ connection: PGConnection) throws -> [Int: String?] {
        var recorded: [Int: String?] = [:]
        for row in try connection.execute(Self.appliedVersions).rows {
            recorded[Int(try row.int32(0))] = .some(try row.optionalString(1))
        }
        return recorded
    }

    /// The files whose bytes no longer match the checksum recorded when they were applied.
    private static func edited(_ files: [Migration], recorded: [Int: String?]) throws -> [Migration] {
        try files.filter { migration in
            guard let entry = recorded[migration.version], let checksum = entry else { return false }
            return try MigrationFiles.checksum(migration.path) != checksum
        }
    }

    /// Where the migrations are: `$REGISTRY_MIGRATIONS_DIR`; else the nearest `migrations`
    /// folder holding `0001_*.sql` above the executable (a source checkout or an unpacked
    /// release); else the packaged location.
    public static func locateDirectory(
        override: String? = environment("REGISTRY_MIGRATIONS_DIR"),
        executableDirectory: String? = executableDirectory()
    ) -> String {
        if let override, !override.isEmpty { return override }
        var directory = executableDirectory
        while let current = directory {
            let candidate = (current == "/" ? "" : current) + "/migrations"
            if MigrationFiles.containsFirstMigration(candidate) { return candidate }
            directory = MigrationFiles.parent(of: current)
        }
        return "/usr/share/schema-registry/migrations"
    }

    /// The running executable's directory, where a release keeps its `migrations` nearby.
    public static func executableDirectory() -> String? { MigrationFiles.executableDirectory() }

    /// An environment variable, read with `getenv` so this module needs no Foundation.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// A lost database reaches the caller as `RegistryError.unavailable`, like every other store.
    private static func surfacingUnavailable<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PGError {
            throw error.registryError
        }
    }

    /// Keeps database failures apart from file failures so the CLI can say which.
    @discardableResult
    private func run<T>(_ connection: PGConnection, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PGError {
            // Connection loss stays a PGError so the pool notices and the caller sees 503.
            if error.isConnectionLoss { throw error }
            throw MigrationError.failed(nil, error)
        }
    }

    // MARK: - SQL

    private static let createTable = PGStatement(file: "migrator_create_table")
    /// Databases migrated before checksums were recorded get the column here, not in a numbered
    /// migration, because the migrator needs it before it can check any migration.
    private static let addChecksumColumn = PGStatement(file: "migrator_add_checksum_column")
    private static let lock = PGStatement(file: "migrator_lock")
    private static let unlock = PGStatement(file: "migrator_unlock")
    private static let appliedVersions = PGStatement(file: "migrator_versions")
    private static let record = PGStatement(file: "migrator_record")
    private static let backfillChecksum = PGStatement(file: "migrator_backfill_checksum")
    private static let tableExists = PGStatement(file: "migrator_table_exists")
    private static let appliedList = PGStatement(file: "migrator_applied")
}
