import Registry

/// A PostgreSQL SQLSTATE. Decisions (retry, 409, 503) are taken on these codes because message
/// text is localised and changes between server versions.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The five-character code exactly as the server sent it.
    public let rawValue: String
    /// Any code is representable: the server may send codes newer than this list.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Shorthand for the constants below.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let uniqueViolation = SQLState("23505")
    public static let foreignKeyViolation = SQLState("23503")
    public static let serializationFailure = SQLState("40001")
    public static let deadlockDetected = SQLState("40P01")
    public static let queryCanceled = SQLState("57014")
    public static let adminShutdown = SQLState("57P01")
    public static let crashShutdown = SQLState("57P02")
    public static let cannotConnectNow = SQLState("57P03")
    public static let tooManyConnections = SQLState("53300")
    public static let lockNotAvailable = SQLState("55P03")
    /// A write sent to a standby, or to a server that became one: the session is on the wrong
    /// server and only a new connection (which finds the primary) can help.
    public static let readOnlySQLTransaction = SQLState("25006")

    /// The two-character class (`08` connection exception, `23` integrity violation, ...).
    public var errorClass: String { String(rawValue.prefix(2)) }

    /// Connection exceptions and server shutdowns: the session is gone, the statement may not
    /// have run, and only a new connection can help.
    public var isConnectionLoss: Bool {
        errorClass == "08" || self == .adminShutdown || self == .crashShutdown || self == .cannotConnectNow
    }

    /// The session cannot serve the service again: it lost its server, or its server is (now) a
    /// standby. The pool replaces it instead of lending it again.
    public var condemnsSession: Bool { isConnectionLoss || self == .readOnlySQLTransaction }

    /// Conflicts PostgreSQL resolves by aborting one transaction; running it again is correct.
    public var isTransientConflict: Bool { self == .deadlockDetected || self == .serializationFailure }

    /// The condition name from the PostgreSQL manual (Appendix A), for logs.
    public var name: String {
        switch rawValue {
        case "23505": "unique_violation"
        case "23503": "foreign_key_violation"
        case "23502": "not_null_violation"
        case "23514": "check_violation"
        case "22003": "numeric_value_out_of_range"
        case "22P02": "invalid_text_representation"
        case "22021": "character_not_in_repertoire"
        case "40001": "serialization_failure"
        case "40P01": "deadlock_detected"
        case "57014": "query_canceled"
        case "57P01": "admin_shutdown"
        case "57P02": "crash_shutdown"
        case "57P03": "cannot_connect_now"
        case "53300": "too_many_connections"
        case "55P03": "lock_not_available"
        case "42P01": "undefined_table"
        case "25006": "read_only_sql_transaction"
        default: errorClass == "08" ? "connection_exception" : "sqlstate"
        }
    }

    /// `23505 unique_violation`: code and name, for logs.
    public var description: String { "\(rawValue) \(name)" }
}

/// A failure talking to PostgreSQL. `description` is safe to log or show: it never holds SQL,
/// parameter values, server messages (which quote values) or connection strings; those go to
/// `debugDetail` only, for a developer with access to the machine. `cause` is what the log
/// keeps of it: the SQLSTATE, the statement's name and the server's primary message.
public struct PGError: Error, Sendable, CustomStringConvertible {
    /// Where the failure happened, which decides whether the session can be reused and
    /// whether the statement may have run.
    public enum Kind: Sendable, Equatable {
        /// Could not open a session (refused, DNS, authentication, startup timeout).
        case connectionFailed
        /// The session broke while in use; the statement's outcome is unknown.
        case connectionLost
        /// The server answered with an error; `sqlState` says which.
        case server
        /// No answer within the client-side response deadline; the session was abandoned.
        case timeout
        /// A parameter libpq cannot carry (a NUL character in text).
        case invalidParameter
        /// The server's answer did not have the shape the caller expected.
        case unexpectedResult
    }

    /// Decides reuse of the session and retry (see `Kind`).
    public let kind: Kind
    /// Present for server errors; what callers match on (23505 → 409, 40P01 → retry).
    public let sqlState: SQLState?
    /// The prepared statement's name (never its SQL), to tell which call failed.
    public let statement: String?
    /// Server or libpq message text; may contain values and host names, so never in `description`.
    public let debugDetail: String
    /// The constraint a violation names, which tells apart two unique keys of one table.
    public let constraint: String?
    /// What the log may show of the server's or libpq's words: the server's primary message
    /// (never its DETAIL, which quotes values), or libpq's reason a connection failed with the
    /// password masked. Nil when only `debugDetail` has words, which may not be logged.
    public let logMessage: String?

    /// Public so other adapters and tests can build the errors they expect to see.
    public init(
        kind: Kind, sqlState: SQLState? = nil, statement: String? = nil, debugDetail: String = "",
        constraint: String? = nil, logMessage: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.statement = statement
        self.debugDetail = debugDetail
        self.constraint = constraint
        self.logMessage = logMessage
    }

    /// The same failure, said to have happened in `statement` unless it names one already:
    /// errors raised outside libpq (a row that does not decode, a session dropped with several
    /// statements in flight) learn their statement from the caller that ran it.
    public func naming(_ statement: String) -> PGError {
        guard self.statement == nil else { return self }
        return PGError(
            kind: kind, sqlState: sqlState, statement: statement, debugDetail: debugDetail, constraint: constraint,
            logMessage: logMessage)
    }

    /// True when the session cannot be used again and a fresh connection might succeed.
    public var isConnectionLoss: Bool {
        switch kind {
        case .connectionFailed, .connectionLost, .timeout: true
        case .server: sqlState?.isConnectionLoss ?? false
        case .invalidParameter, .unexpectedResult: false
        }
    }

    /// Safe for logs and clients: kind, SQLSTATE and statement name only.
    public var description: String {
        let what: String
        switch kind {
        case .connectionFailed: what = "could not connect to the database"
        case .connectionLost: what = "lost the database connection"
        case .server: what = "database error \(sqlState.map(\.description) ?? "without SQLSTATE")"
        case .timeout: what = "no answer from the database in time"
        case .invalidParameter: what = "a parameter cannot be sent to the database"
        case .unexpectedResult: what = "unexpected result from the database"
        }
        guard let statement else { return what }
        return "\(what) (statement \(statement))"
    }

    /// The error the service shows for an unexpected database failure: 503 when the database is
    /// unreachable, overloaded, failing over or read-only (the client should come back), 500
    /// otherwise. The client sees only that; the log sees `cause`. A write in flight when its
    /// session was lost may or may not have committed: 503 says "unknown, retry", and a retry
    /// with the same `Idempotency-Key` finds the committed answer if there is one.
    public var registryError: RegistryError {
        let shown: RegistryError
        if isConnectionLoss {
            shown = Self.unavailable
        } else {
            switch sqlState {
            case .queryCanceled?, .tooManyConnections?, .lockNotAvailable?: shown = Self.unavailable
            // A serialization failure that outlived its retry, or a standby cancelling a read
            // that conflicts with replay: transient, the same request later succeeds.
            case .serializationFailure?: shown = Self.unavailable
            case .readOnlySQLTransaction?: shown = Self.readOnly
            default: shown = .internal()
            }
        }
        return shown.caused(by: cause)
    }

    static let unavailable = RegistryError.unavailable("database unavailable", retryAfterSeconds: 1)

    /// What a write is told while no primary can be reached (a failover under way, or only
    /// standbys left): reads are still served, writes resume by themselves when a primary is back.
    public static let readOnly = RegistryError.unavailable(
        "the registry is read-only: no primary database is reachable; writes resume when one is, retry later",
        retryAfterSeconds: 2)

    /// What the log keeps: the kind, the SQLSTATE, the statement's name and the message that is
    /// safe to log. A data exception's primary message quotes the value that failed
    /// (`invalid input syntax for type bigint: "…"`), so only the words before that are kept.
    /// The other kinds' `debugDetail` is this client's own reason or libpq's word on a lost
    /// session, whose first line is kept; a server's or a failed connection's full text never is.
    public var cause: RegistryError.Cause {
        var message = logMessage
        if message == nil && kind != .server && kind != .connectionFailed {
            let firstLine = debugDetail.prefix { $0 != "\n" }.trimmingPrefix(while: \.isWhitespace)
            if !firstLine.isEmpty { message = String(firstLine) }
        }
        if sqlState?.errorClass == "22", let text = message, let colon = text.firstRange(of: ": ") {
            message = String(text[..<colon.lowerBound])
        }
        return RegistryError.Cause(kind: kind.logName, sqlState: sqlState?.rawValue, statement: statement, message: message)
    }
}

extension PGError.Kind {
    /// The kind as the log names it (`cause_kind`).
    var logName: String {
        switch self {
        case .connectionFailed: "connection_failed"
        case .connectionLost: "connection_lost"
        case .server: "database_error"
        case .timeout: "database_timeout"
        case .invalidParameter: "invalid_parameter"
        case .unexpectedResult: "unexpected_result"
        }
    }
}
