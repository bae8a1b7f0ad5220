extension RegistryError {
    /// What went wrong underneath a server-side failure, for the operator's log and never for
    /// the client: the response shows only the error's code and message, so a database's
    /// SQLSTATE, the statement that failed and the server's own words can be kept here without
    /// leaking the schema or the SQL to callers.
    ///
    /// Whoever builds one keeps it free of secrets: no parameter values, no tokens, no
    /// connection strings. Every text is cut to `ClientText.maxShownBytes`, so a cause never
    /// makes a log line long.
    public struct Cause: Sendable, Equatable {
        /// Which kind of failure, in `snake_case` (`database_error`, `connection_failed`, …).
        public let kind: String
        /// The SQLSTATE the database answered with, when it answered.
        public let sqlState: String?
        /// The name of the statement that failed (its SQL file's name), when one was running.
        public let statement: String?
        /// The server's or the client library's message, worded for an operator.
        public let message: String?

        public init(kind: String, sqlState: String? = nil, statement: String? = nil, message: String? = nil) {
            self.kind = ClientText.shown(kind)
            self.sqlState = sqlState.map(ClientText.shown)
            self.statement = statement.map(ClientText.shown)
            self.message = message.map(ClientText.shown)
        }
    }

    /// The same error, shown to the client exactly as before, with `cause` kept for the log.
    public func caused(by cause: Cause) -> RegistryError {
        RegistryError(code: code, message: message, details: details, retryAfterSeconds: retryAfterSeconds, cause: cause)
    }
}
