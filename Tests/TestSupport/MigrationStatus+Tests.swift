import RegistryPostgres

extension MigrationStatus {
    /// Versions the database has that this build does not know (a newer build migrated it).
    public var unknown: [Int] {
        let known = Set(available.map(\.version))
        return applied.map(\.version).filter { !known.contains($0) }
    }
}
