import RegistryPostgres

/// Builds the database side from the configuration, the same way for every command.
enum Database {
    /// The writers' pool, with a pool for reads while no primary is reachable: on the read URL,
    /// or on the writers' own hosts taking whichever answers when those are several.
    static func pool(_ configuration: Configuration) -> ConnectionPool {
        let writers = config(configuration, url: configuration.databaseURL)
        var readers: PostgresConfig?
        if let url = configuration.readDatabaseURL {
            readers = config(configuration, url: url)
        } else if ConnectionString.namesSeveralHosts(configuration.databaseURL) {
            readers = writers
            readers?.targetSessionAttrs = "any"
        }
        readers?.applicationName = "schema-registry-reads"
        return ConnectionPool(config: writers, standby: readers)
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
            loopSessions: configuration.dbLoopSessions
        )
    }

    static func migrator(_ configuration: Configuration, pool: ConnectionPool) -> Migrator {
        Migrator(pool: pool, directory: configuration.migrationsDirectory ?? Migrator.locateDirectory(override: nil))
    }
}
