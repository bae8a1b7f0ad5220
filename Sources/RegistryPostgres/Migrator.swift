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
}

/// Applied versus available migrations, so the server can refuse to start on a database older
/// than its code and readiness can report the same.
public struct MigrationStatus: Sendable, Equatable {
    /// What the database has recorded, in version order.
    public let applied: [AppliedMigration]
    /// What this build ships, in version order.
    public let available: [Migration]

    /// Shipped but not yet applied: what `migrate` would apply.
    public var pending: [Migration] {
        let done = Set(applied.map(\.version))
        return available.filter { !done.contains($0.version) }
    }

    /// Versions the database has that this build does not know (a newer build migrated it).
    public var unknown: [Int] {
        let known = Set(available.map(\.version))
        return applied.map(\.version).filter { !known.contains($0) }
    }

    /// True when every shipped migration is applied; a newer database (`unknown` not empty)
    /// still counts, so an older build can keep serving during a rolling deploy.
    public var isUpToDate: Bool { pending.isEmpty }

    /// What to tell the operator when the database is behind, or nil when it is up to date.
    public var problem: String? {
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
                try run(connection) { try connection.simpleQuery(Self.createTable) }
                let done = try run(connection) {
                    Set(try connection.execute(Self.appliedVersions).rows.map { Int(try $0.int32(0)) })
                }
                var appliedNow: [Migration] = []
                for migration in files where !done.contains(migration.version) {
                    let sql = try MigrationFiles.read(migration.path)
                    do {
                        try connection.transaction {
                            try connection.simpleQuery(sql)
                            try connection.execute(Self.record, [migration.version, migration.name])
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

    /// Applied versus available, without changing anything (no lock, no table creation).
    public func status() throws -> MigrationStatus {
        let files = try available()
        let applied = try Self.surfacingUnavailable { try pool.withConnection(retry: .read) { connection in
            try run(connection) { () throws -> [AppliedMigration] in
                guard try connection.execute(Self.tableExists).rows.first?.bool(0) == true else { return [] }
                return try connection.execute(Self.appliedList).rows.map { row in
                    AppliedMigration(version: Int(try row.int32(0)), name: try row.string(1), appliedAt: try row.string(2))
                }
            }
        } }
        return MigrationStatus(applied: applied, available: files)
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

    private static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version integer PRIMARY KEY,
            name text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """
    private static let lock = PGStatement("migrator_lock", "SELECT pg_advisory_lock($1::bigint)")
    private static let unlock = PGStatement("migrator_unlock", "SELECT pg_advisory_unlock($1::bigint)")
    private static let appliedVersions = PGStatement("migrator_versions", "SELECT version FROM schema_migrations")
    private static let record = PGStatement(
        "migrator_record", "INSERT INTO schema_migrations (version, name) VALUES ($1::integer, $2::text)")
    private static let tableExists = PGStatement(
        "migrator_table_exists", "SELECT to_regclass('schema_migrations') IS NOT NULL")
    private static let appliedList = PGStatement(
        "migrator_applied",
        """
        SELECT version, name, to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        FROM schema_migrations ORDER BY version
        """)
}
