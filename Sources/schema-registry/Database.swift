import RegistryPostgres

/// Builds the database side from the configuration, the same way for every command.
enum Database {
    static func pool(_ configuration: Configuration) -> ConnectionPool {
        ConnectionPool(config: PostgresConfig(
            databaseURL: configuration.databaseURL,
            poolSize: configuration.poolSize,
            acquireTimeout: .milliseconds(configuration.dbAcquireTimeoutMilliseconds),
            connectTimeout: .seconds(configuration.dbConnectTimeoutSeconds),
            statementTimeout: .milliseconds(configuration.dbStatementTimeoutMilliseconds),
            // The server's statement timeout must always fire first: a statement abandoned by the
            // client could still commit after the caller was told 503.
            responseTimeout: .milliseconds(configuration.dbStatementTimeoutMilliseconds + 3000),
            loopSessions: configuration.dbLoopSessions
        ))
    }

    static func migrator(_ configuration: Configuration, pool: ConnectionPool) -> Migrator {
        Migrator(pool: pool, directory: configuration.migrationsDirectory ?? Migrator.locateDirectory(override: nil))
    }
}
