import RegistryPostgres

extension SQLState {
    /// `22P02`: a value PostgreSQL cannot read as its type. The service decides nothing on it;
    /// tests use it to provoke a server error on purpose.
    public static let invalidTextRepresentation = SQLState("22P02")
}
