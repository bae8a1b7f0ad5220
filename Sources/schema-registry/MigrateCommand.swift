/// `schema-registry migrate`: applies pending migrations; safe to run from several replicas at
/// once (the migrator holds an advisory lock).
enum MigrateCommand {
    static func run(environment: [String: String]) throws {
        let configuration = try Configuration.fromEnvironment(environment)
        let pool = Database.pool(configuration)
        defer { pool.close() }
        let applied = try Database.migrator(configuration, pool: pool).migrate()
        if applied.isEmpty {
            Console.message("migrate: database is up to date")
        }
        for migration in applied {
            Console.message("migrate: applied \(migration)")
        }
    }
}
