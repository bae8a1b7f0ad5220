import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One PostgreSQL session and the only owner of its `PGconn*`: the handle is finished in `deinit`,
/// so a dropped connection can never leak a socket or be finished twice.
///
/// Not thread-safe (libpq sessions are not): use it from one thread at a time, which the pool
/// guarantees by lending each session to one caller.
///
/// Statements are sent with `PQsendQueryPrepared` and answered through `poll`, which behaves like
/// `PQexecPrepared` but lets the client enforce `responseTimeout`: a blocking libpq call could
/// wait forever on a host that vanished without closing the socket.
public final class PGConnection {
    let handle: OpaquePointer
    private let statementTimeout: Duration
    private var responseTimeout: Duration?
    /// Statements prepared in this session: name → SQL (to catch two statements sharing a name).
    var prepared: [String: String] = [:]
    /// Set once the session is known to be unusable (lost, timed out, in an unknown state).
    var broken = false
    /// What a session in pipeline mode still owes (see `PGConnection+Pipeline.swift`).
    var pipeline = PipelineState()

    private init(handle: OpaquePointer, config: PostgresConfig) {
        self.handle = handle
        self.statementTimeout = config.statementTimeout
        self.responseTimeout = config.responseTimeout
    }

    deinit { PQfinish(handle) }

    /// Opens a session. Our defaults (`connect_timeout`, `application_name`) come before `dbname`
    /// so that settings in `databaseURL` override them; `client_encoding` comes after because
    /// byte-exact text depends on it, and so does `targetSessionAttrs` when set, because a pool
    /// made for reads from the writers' URL must not insist on the primary.
    public static func connect(_ config: PostgresConfig) throws(PGError) -> PGConnection {
        let connectSeconds = max(1, (config.connectTimeout.wholeMilliseconds + 999) / 1000)
        var keywords: [String?] = ["connect_timeout", "application_name", "dbname", "client_encoding"]
        var values: [String?] = [String(connectSeconds), config.applicationName, config.databaseURL, "UTF8"]
        if let target = config.targetSessionAttrs {
            keywords.append("target_session_attrs")
            values.append(target)
        }
        keywords.append(nil)
        values.append(nil)
        let raw = withCStrings(keywords) { k in withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        guard let raw else { throw PGError(kind: .connectionFailed, debugDetail: "libpq could not allocate a connection") }
        guard PQstatus(raw) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(raw))
            PQfinish(raw)
            throw PGError(
                kind: .connectionFailed, debugDetail: message,
                logMessage: ConnectionString.masking(firstLineOf: message, secretsOf: config.databaseURL))
        }
        // Notices (and the FATAL an idle session receives at server shutdown) would otherwise be
        // printed to stderr by libpq's default processor.
        PQsetNoticeProcessor(raw, { _, _ in }, nil)
        let connection = PGConnection(handle: raw, config: config)
        do {
            try connection.simpleQuery(
                "SET statement_timeout = \(config.statementTimeout.wholeMilliseconds); SET plan_cache_mode = \(planCacheMode)")
        } catch {
            throw PGError(
                kind: .connectionFailed, sqlState: error.sqlState, debugDetail: error.debugDetail, logMessage: error.logMessage)
        }
        return connection
    }

    /// Every statement of the service finds its rows through an index keyed by its parameters,
    /// so one plan fits all values. Left to choose, the server may instead plan a statement
    /// afresh on every execution when the parameter values look cheaper than its generic plan
    /// (it did for the publish statement: planning it cost more than running it).
    static let planCacheMode = "force_generic_plan"

    /// False once the session is known to be unusable; the pool then drops it.
    public var isUsable: Bool { !broken && PQstatus(handle) == CONNECTION_OK }

    /// Marks the session unusable so the pool closes it instead of lending it again, for when
    /// its state is unknown (a session-level lock that could not be released).
    public func invalidate() { broken = true }

    /// True outside a transaction block: only such a session may go back to the pool.
    public var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// Notices a server-side close (restart, `pg_terminate_backend`) without blocking. Used
    /// before lending an idle session, so that one killed while idle is replaced instead of
    /// failing the caller's statement (which, for a write, could not be retried).
    ///
    /// An idle session is sent nothing unless the server is ending it (we never LISTEN), so
    /// anything readable on the socket condemns it: reading would show the FATAL message but not
    /// necessarily the end of the stream yet.
    public func checkAlive() -> Bool {
        guard isUsable, isIdle else { return false }
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            broken = true
            return false
        }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 0) != 0 { broken = true }
        return isUsable
    }

    /// Runs a named statement, preparing it first if this session has not seen it yet.
    @discardableResult
    public func execute(_ statement: PGStatement, _ parameters: [(any PGParameter)?] = []) throws(PGError)
        -> PGResult
    {
        try prepareIfNeeded(statement)
        let texts = try Self.texts(of: parameters, for: statement)
        let sent = withCStrings(texts) { values in
            PQsendQueryPrepared(handle, statement.name, Int32(values.count), values, nil, nil, 0)
        }
        guard sent == 1 else { throw sendFailure(statement: statement.name) }
        return try awaitResult(statement: statement.name)
    }

    /// Runs SQL through the simple-query protocol: several statements may be separated by `;`,
    /// nothing is prepared, and there are no parameters. For constant SQL only (BEGIN, SET,
    /// migration files), never for values.
    @discardableResult
    public func simpleQuery(_ sql: String) throws(PGError) -> PGResult {
        guard !sql.utf8.contains(0) else {
            throw PGError(kind: .invalidParameter, debugDetail: "SQL contains NUL")
        }
        guard PQsendQuery(handle, sql) == 1 else { throw sendFailure(statement: nil) }
        return try awaitResult(statement: nil)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try simpleQuery("BEGIN")
        let value: T
        do {
            value = try body()
        } catch {
            if isUsable { _ = try? simpleQuery("ROLLBACK") }
            throw error
        }
        try simpleQuery("COMMIT")
        return value
    }

    /// Lifts both timeouts for work that may legitimately wait long (migrations waiting for the
    /// migration lock, a slow DDL statement), then restores them. If restoring fails the session
    /// is marked unusable so that it never goes back to the pool without its timeout.
    @discardableResult
    public func withoutTimeouts<T>(_ body: () throws -> T) throws -> T {
        let savedResponseTimeout = responseTimeout
        try applyStatementTimeout(.zero)
        responseTimeout = nil
        defer {
            responseTimeout = savedResponseTimeout
            do { try applyStatementTimeout(statementTimeout) } catch { broken = true }
        }
        return try body()
    }

    // MARK: - Internals

    private func applyStatementTimeout(_ timeout: Duration) throws(PGError) {
        try simpleQuery("SET statement_timeout = \(timeout.wholeMilliseconds)")
    }

    private func prepareIfNeeded(_ statement: PGStatement) throws(PGError) {
        guard try needsPreparing(statement) else { return }
        guard PQsendPrepare(handle, statement.name, statement.sql, 0, nil) == 1 else {
            throw sendFailure(statement: statement.name)
        }
        try awaitResult(statement: statement.name)
        prepared[statement.name] = statement.sql
    }

    /// True when this session has not prepared `statement` yet; throws when another SQL text
    /// was prepared under its name.
    func needsPreparing(_ statement: PGStatement) throws(PGError) -> Bool {
        guard let known = prepared[statement.name] else { return true }
        guard known == statement.sql else {
            // A programming error that tests catch; in production it fails one call, not the process.
            assertionFailure("two statements are named \(statement.name)")
            throw PGError(kind: .unexpectedResult, statement: statement.name, debugDetail: "two statements share this name")
        }
        return false
    }

    func sendFailure(statement: String?) -> PGError {
        let message = String(cString: PQerrorMessage(handle))
        if PQstatus(handle) != CONNECTION_OK { broken = true }
        return PGError(kind: broken ? .connectionLost : .unexpectedResult, statement: statement, debugDetail: message)
    }

    /// Collects every result of the command just sent; returns the last success or throws the
    /// first error. Always drains to the final NULL so the session is ready for the next command.
    @discardableResult
    private func awaitResult(statement: String?) throws(PGError) -> PGResult {
        let deadline = responseTimeout.map { ContinuousClock.now + $0 }
        var last: PGResult?
        var failure: PGError?
        while true {
            while PQisBusy(handle) != 0 {
                try waitForInput(until: deadline, statement: statement)
                if PQconsumeInput(handle) == 0 {
                    broken = true
                    throw PGError(
                        kind: .connectionLost, statement: statement,
                        debugDetail: String(cString: PQerrorMessage(handle)))
                }
            }
            guard let result = PQgetResult(handle) else { break }
            let status = PQresultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
                let copied = PGResult(consuming: result)
                if failure == nil { last = copied }
            } else if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
                PQclear(result)
                broken = true
                throw PGError(kind: .unexpectedResult, statement: statement, debugDetail: "COPY is not supported")
            } else {
                let error = serverError(result, statement: statement)
                PQclear(result)
                if failure == nil { failure = error }
            }
        }
        if let failure { throw settled(failure, statement: statement) }
        return last ?? PGResult()
    }

    /// A command's failure as callers see it: a server error without SQLSTATE on a session that
    /// broke is libpq reporting the lost connection, so it counts as a loss.
    func settled(_ failure: PGError, statement: String?) -> PGError {
        if PQstatus(handle) != CONNECTION_OK { broken = true }
        if broken && failure.kind == .server && failure.sqlState == nil {
            return PGError(kind: .connectionLost, statement: statement, debugDetail: failure.debugDetail)
        }
        return failure
    }

    /// The parameters' text forms; libpq ends text at a NUL, so a value holding one cannot be sent.
    static func texts(of parameters: [(any PGParameter)?], for statement: PGStatement) throws(PGError) -> [String?] {
        let texts = parameters.map { $0?.pgText }
        for text in texts where text?.utf8.contains(0) == true {
            throw PGError(kind: .invalidParameter, statement: statement.name, debugDetail: "text contains NUL")
        }
        return texts
    }

    func serverError(_ result: OpaquePointer, statement: String?) -> PGError {
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let state = field(CLIBPQ_DIAG_SQLSTATE).map(SQLState.init(rawValue:))
        var detail = PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        if detail.isEmpty { detail = String(cString: PQerrorMessage(handle)) }
        if state?.condemnsSession == true { broken = true }
        return PGError(
            kind: .server, sqlState: state, statement: statement, debugDetail: detail,
            constraint: field(CLIBPQ_DIAG_CONSTRAINT_NAME), logMessage: field(CLIBPQ_DIAG_MESSAGE_PRIMARY))
    }

    private func waitForInput(until deadline: ContinuousClock.Instant?, statement: String?) throws(PGError) {
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            broken = true
            throw PGError(kind: .connectionLost, statement: statement, debugDetail: "no socket")
        }
        while true {
            var timeoutMilliseconds: Int32 = -1
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else {
                    broken = true
                    throw PGError(kind: .timeout, statement: statement, debugDetail: "no answer within the response timeout")
                }
                timeoutMilliseconds = Int32(clamping: remaining.wholeMilliseconds)
            }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeoutMilliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                broken = true
                throw PGError(kind: .connectionLost, statement: statement, debugDetail: "poll failed: errno \(errno)")
            }
        }
    }
}

/// Lends C strings for the duration of `body` (libpq copies what it keeps).
func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
