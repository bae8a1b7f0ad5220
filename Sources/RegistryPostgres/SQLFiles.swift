/// The service's SQL: one statement per file in `SQL/`, embedded at build time by
/// EmbeddedFilesPlugin, so each statement is written once and read as plain SQL by people,
/// `psql` and the benchmark's pgbench baseline (bench/run.sh builds its scripts from these
/// files). Values always go as `$n` parameters with explicit casts; timestamps leave the
/// database as RFC 3339 UTC text formatted by the server (`to_char(… AT TIME ZONE 'UTC', …)`),
/// so results do not depend on the session's TimeZone or DateStyle. Triggers and functions
/// belong to migrations/, not here.
enum SQLFiles {
    /// Statement text by file name without `.sql`.
    static let statements: [String: String] = Dictionary(
        uniqueKeysWithValues: GeneratedSQLFiles.files.map { file in
            var text = Substring(file.text)
            while text.last?.isWhitespace == true { text.removeLast() }
            return (String(file.name.dropLast(".sql".count)), String(text))
        })
}

extension PGStatement {
    /// The statement of `SQL/NAME.sql`, prepared under NAME. A name with no file is a
    /// programming error: it stops the process when the statement is first used (the tests
    /// check that every name the sources use has its file and every file is used).
    init(file name: String) {
        guard let sql = SQLFiles.statements[name] else { preconditionFailure("no statement SQL/\(name).sql is embedded") }
        self.init(name, sql)
    }
}
