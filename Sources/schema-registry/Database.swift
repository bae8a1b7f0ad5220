import RegistryPostgres

/// Builds the database side from the configuration, the same way for every command.
enum Database {
    /// The writers' pool, with a pool on standbys: on the read URL, or on the writers' own hosts
    /// preferring a standby when those are several. It serves reads while no primary is
    /// reachable, and the reads `StandbyReads` lets it answer while one is.
    static func pool(_ configuration: Configuration) -> ConnectionPool {
        let writers = config(configuration, url: configuration.databaseURL)
        var readers: PostgresConfig?
        if let url = configuration.readDatabaseURL {
            readers = config(configuration, url: url)
        } else if ConnectionString.namesSeveralHosts(configuration.databaseURL) {
            readers = writers
            readers?.targetSessionAttrs = "prefer-standby"
        }
        readers?.applicationName = "schema-registry-reads"
        return ConnectionPool(
            config: writers, standby: readers, standbyReadsMaxLag: .milliseconds(configuration.readMaxLagMilliseconds))
    }

    private static func config(_ configuration: Configuration, url: String) -> PostgresConfig {
        PostgresConfig(
            databaseURL: url,
            poolSize: configuration.poolSize,
            acquireTimeout: .milliseconds(configuration.dbAcquireTimeoutMilliseconds),
            connectTimeout: .seconds(configuration.dbConnectTimeoutSeconds),
            statementTimeout: .milliseconds(configuration.dbStatementTimeoutMilliseconds),
            // The server's statement timeout must always fire first: a statement abandoned by the
            // client could still commit after the caller was told 503.
            responseTimeout: .milliseconds(configuration.dbStatementTimeoutMilliseconds + 3000),
            loopSessions: configuration.dbLoopSessions,
            loopTransactions: configuration.dbLoopTransactions
        )
    }

    static func migrator(_ configuration: Configuration, pool: ConnectionPool) -> Migrator {
        Migrator(pool: pool, directory: configuration.migrationsDirectory ?? Migrator.locateDirectory(override: nil))
    }
}
