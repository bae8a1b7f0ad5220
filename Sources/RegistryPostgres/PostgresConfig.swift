/// Everything the PostgreSQL adapter needs to reach the database, with defaults chosen so that
/// a request never waits longer than a few seconds on a sick database.
public struct PostgresConfig: Sendable, Equatable {
    /// A libpq URI (`postgresql://user@host/db`) or `key=value` string, usually `DATABASE_URL`.
    /// Its settings win over ours (`connect_timeout`, `application_name`).
    public var databaseURL: String
    /// Most sessions the pool keeps open at once.
    public var poolSize: Int
    /// How long a caller waits for a free pooled session before getting 503.
    public var acquireTimeout: Duration
    /// libpq `connect_timeout` (whole seconds, at least 2 by libpq's rule), per address tried.
    public var connectTimeout: Duration
    /// Server-side `statement_timeout`: the server cancels anything running longer.
    public var statementTimeout: Duration
    /// Client-side deadline for any answer. It bounds waits the server cannot, such as a host that
    /// vanished without closing the socket; the session is abandoned when it passes.
    public var responseTimeout: Duration
    /// Shown in `pg_stat_activity`, so operators can tell the service's sessions apart.
    public var applicationName: String
    /// Sessions each event loop keeps for its reads, each with many reads in flight at once.
    public var loopSessions: Int
    /// Most reads in flight on one loop session; past it reads wait for one to be answered.
    public var loopReadsInFlight: Int
    /// Most reads one loop keeps waiting for a session, and most transactions waiting for one
    /// of its transaction sessions; past it a read or a transaction fails at once with 503.
    public var loopReadsWaiting: Int
    /// Most sessions each event loop opens for transactions, each lent to one transaction at a
    /// time; past it a transaction waits up to `acquireTimeout` for one.
    public var loopTransactions: Int
    /// libpq `target_session_attrs` forced over whatever `databaseURL` says; nil leaves the URL's.
    /// Set for the standbys' pool made from the writers' URL: `prefer-standby`, so that it uses a
    /// standby the writers' `read-write` would refuse, or the primary when no standby answers.
    public var targetSessionAttrs: String?

    /// Only the URL is required; the defaults keep every wait to a few seconds.
    public init(
        databaseURL: String,
        poolSize: Int = 8,
        acquireTimeout: Duration = .seconds(2),
        connectTimeout: Duration = .seconds(3),
        statementTimeout: Duration = .seconds(5),
        responseTimeout: Duration = .seconds(8),
        applicationName: String = "schema-registry",
        loopSessions: Int = 1,
        loopReadsInFlight: Int = 64,
        loopReadsWaiting: Int = 1024,
        loopTransactions: Int = 4,
        targetSessionAttrs: String? = nil
    ) {
        self.databaseURL = databaseURL
        self.poolSize = max(1, poolSize)
        self.acquireTimeout = acquireTimeout
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.responseTimeout = responseTimeout
        self.applicationName = applicationName
        self.loopSessions = max(1, loopSessions)
        self.loopReadsInFlight = max(1, loopReadsInFlight)
        self.loopReadsWaiting = max(0, loopReadsWaiting)
        self.loopTransactions = max(1, loopTransactions)
        self.targetSessionAttrs = targetSessionAttrs
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a small positive timeout never becomes "no timeout".
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let rest = attoseconds % 1_000_000_000_000_000
        return rest > 0 ? ms + 1 : ms
    }
}
