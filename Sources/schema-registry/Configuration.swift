import Foundation
import HTTPServer
import RegistryAPI
import RegistryPostgres

/// The service's one configuration, read once from the environment. A bad value stops
/// start-up with one line naming the variable (exit 2), never a half-configured server.
struct Configuration: Sendable {
    var listenHost: String
    var listenPort: Int
    var databaseURL: String
    var httpWorkers: Int
    /// nil: one per core, at most `httpWorkers`.
    var httpEventLoops: Int?
    var poolSize: Int
    /// Non-blocking sessions each event loop keeps for the reads it drives itself.
    var dbLoopSessions: Int
    var dbConnectTimeoutSeconds: Int
    var dbStatementTimeoutMilliseconds: Int
    var dbAcquireTimeoutMilliseconds: Int
    var maxBodyBytes: Int
    var maxHeaderBytes: Int
    var connectionTimeoutSeconds: Int
    var maxConnections: Int
    var maxConnectionsPerAddress: Int
    var requestHeadTimeoutSeconds: Int
    var migrationsDirectory: String?
    var logLevel: Logger.Level
    /// Where probes and metrics are served when not on the main port.
    var adminListen: (host: String, port: Int)?
    var shutdownGraceSeconds: Int
    var cacheBytes: Int
    var authCacheSeconds: Int
    /// nil: audit events are kept for ever.
    var auditRetentionDays: Int?
    /// Distinct earlier texts one publish or dry run compares, newest first.
    var compatibilityMaxVersions: Int
    /// Groups, new problems and inherited problems one compatibility report lists, each.
    var compatibilityMaxProblems: Int
    /// CPU-heavy requests (publish, dry run, uncached forms of large schemas) run at once.
    var maxHeavyRequests: Int
    /// Change-feed requests parked at once, in all and from one client address (0: no limit
    /// of its own); at most half of the connections, so short requests and probes keep the rest.
    var maxWaitingRequests: Int
    var maxWaitingPerAddress: Int

    /// Every variable the binary reads, for `--help`, the README and the deploy-artifact test.
    static let variables: [(name: String, meaning: String)] = [
        ("REGISTRY_LISTEN", "host:port to serve on (default 127.0.0.1:8080)"),
        ("DATABASE_URL", "libpq URI or key=value connection string (required)"),
        ("REGISTRY_HTTP_WORKERS", "threads for publishes, reviews and other blocking or CPU-heavy work (default 16)"),
        ("REGISTRY_HTTP_EVENT_LOOPS", "single-threaded HTTP event loops sharing the port (default: one per core)"),
        ("REGISTRY_DB_POOL_SIZE", "PostgreSQL connections per process (default: REGISTRY_HTTP_WORKERS)"),
        ("REGISTRY_DB_LOOP_SESSIONS", "PostgreSQL connections each event loop adds for its pipelined statements (default 1)"),
        ("REGISTRY_DB_CONNECT_TIMEOUT_SECONDS", "libpq connect_timeout (default 3)"),
        ("REGISTRY_DB_STATEMENT_TIMEOUT_MS", "server-side statement_timeout (default 5000)"),
        ("REGISTRY_DB_ACQUIRE_TIMEOUT_MS", "longest wait for a pooled connection before 503 (default 2000)"),
        ("REGISTRY_MAX_BODY_BYTES", "largest request body; larger is 413 (default 1048576)"),
        ("REGISTRY_MAX_HEADER_BYTES", "memory for one request's headers (default 32768)"),
        ("REGISTRY_CONNECTION_TIMEOUT_SECONDS", "idle or slow connections are closed after this (default 30)"),
        ("REGISTRY_MAX_CONNECTIONS", "open connections per process (default 1000)"),
        ("REGISTRY_MAX_CONNECTIONS_PER_ADDRESS", "open connections one client address may hold; 0 for no limit (default 256)"),
        ("REGISTRY_REQUEST_HEAD_TIMEOUT_SECONDS", "a new connection must send its request head within this (default 10)"),
        ("REGISTRY_MIGRATIONS_DIR", "folder of NNNN_name.sql migrations (default: found beside the binary)"),
        ("REGISTRY_LOG_LEVEL", "debug, info, warning or error (default info)"),
        ("REGISTRY_ADMIN_LISTEN", "host:port for /healthz, /readyz and /metrics only (default: served on REGISTRY_LISTEN)"),
        ("REGISTRY_SHUTDOWN_GRACE_SECONDS", "how long in-flight requests may finish after SIGTERM (default 10)"),
        ("REGISTRY_CACHE_BYTES", "memory for published versions and forms, bookkeeping included; 0 disables the cache (default 8388608)"),
        ("REGISTRY_AUTH_CACHE_SECONDS", "seconds a token or application lookup may be reused, 0 to 10 (default 2)"),
        ("REGISTRY_AUDIT_RETENTION_DAYS", "delete audit events older than this many days, 1 to 36500 (default: keep for ever)"),
        ("REGISTRY_COMPATIBILITY_MAX_VERSIONS", "distinct earlier versions one publish or dry run compares, newest first (default 100)"),
        ("REGISTRY_COMPATIBILITY_MAX_PROBLEMS", "groups, new and inherited problems a compatibility report lists, each; totals are always given (default 200)"),
        ("REGISTRY_MAX_HEAVY_REQUESTS", "publishes, dry runs, uncached forms and push checks of large schemas running at once (default: one per core)"),
        (
            "REGISTRY_MAX_WAITING_REQUESTS",
            "change-feed requests that may wait at once, at most half of REGISTRY_MAX_CONNECTIONS; more are 503 (default: a quarter of REGISTRY_MAX_CONNECTIONS)"
        ),
        (
            "REGISTRY_MAX_WAITING_PER_ADDRESS",
            "change-feed requests one client address may have waiting, at most half of REGISTRY_MAX_CONNECTIONS_PER_ADDRESS; 0 for no limit of its own (default: a quarter of REGISTRY_MAX_CONNECTIONS_PER_ADDRESS)"
        ),
    ]

    static func fromEnvironment(_ environment: [String: String]) throws(ConfigurationError) -> Configuration {
        let reader = EnvironmentReader(environment: environment)
        let (host, port) = try reader.hostPort("REGISTRY_LISTEN", default: ("127.0.0.1", 8080))
        let workers = try reader.integer("REGISTRY_HTTP_WORKERS", default: 16, range: 1...256)
        let maxConnections = try reader.integer("REGISTRY_MAX_CONNECTIONS", default: 1000, range: 1...100_000)
        let maxConnectionsPerAddress = try reader.integer(
            "REGISTRY_MAX_CONNECTIONS_PER_ADDRESS", default: 256, range: 0...100_000)
        return Configuration(
            listenHost: host,
            listenPort: port,
            databaseURL: try reader.required("DATABASE_URL"),
            httpWorkers: workers,
            httpEventLoops: try reader.optional("REGISTRY_HTTP_EVENT_LOOPS").map { _ throws(ConfigurationError) in
                try reader.integer("REGISTRY_HTTP_EVENT_LOOPS", default: 1, range: 1...64)
            },
            poolSize: try reader.integer("REGISTRY_DB_POOL_SIZE", default: workers, range: 1...1000),
            dbLoopSessions: try reader.integer("REGISTRY_DB_LOOP_SESSIONS", default: 1, range: 1...16),
            dbConnectTimeoutSeconds: try reader.integer("REGISTRY_DB_CONNECT_TIMEOUT_SECONDS", default: 3, range: 2...300),
            dbStatementTimeoutMilliseconds: try reader.integer(
                "REGISTRY_DB_STATEMENT_TIMEOUT_MS", default: 5000, range: 1...3_600_000),
            dbAcquireTimeoutMilliseconds: try reader.integer(
                "REGISTRY_DB_ACQUIRE_TIMEOUT_MS", default: 2000, range: 1...600_000),
            maxBodyBytes: try reader.integer("REGISTRY_MAX_BODY_BYTES", default: 1_048_576, range: 1024...67_108_864),
            maxHeaderBytes: try reader.integer("REGISTRY_MAX_HEADER_BYTES", default: 32_768, range: 4096...1_048_576),
            connectionTimeoutSeconds: try reader.integer("REGISTRY_CONNECTION_TIMEOUT_SECONDS", default: 30, range: 1...3600),
            maxConnections: maxConnections,
            maxConnectionsPerAddress: maxConnectionsPerAddress,
            requestHeadTimeoutSeconds: try reader.integer("REGISTRY_REQUEST_HEAD_TIMEOUT_SECONDS", default: 10, range: 1...3600),
            migrationsDirectory: reader.optional("REGISTRY_MIGRATIONS_DIR"),
            logLevel: try reader.logLevel("REGISTRY_LOG_LEVEL"),
            adminListen: try reader.optional("REGISTRY_ADMIN_LISTEN").map { _ throws(ConfigurationError) in
                try reader.hostPort("REGISTRY_ADMIN_LISTEN", default: ("", 0))
            },
            shutdownGraceSeconds: try reader.integer("REGISTRY_SHUTDOWN_GRACE_SECONDS", default: 10, range: 0...3600),
            cacheBytes: try reader.integer("REGISTRY_CACHE_BYTES", default: 8 << 20, range: 0...(64 << 30)),
            authCacheSeconds: try reader.integer("REGISTRY_AUTH_CACHE_SECONDS", default: 2, range: 0...10),
            auditRetentionDays: try reader.optional("REGISTRY_AUDIT_RETENTION_DAYS").map { _ throws(ConfigurationError) in
                try reader.integer("REGISTRY_AUDIT_RETENTION_DAYS", default: 0, range: 1...36_500)
            },
            compatibilityMaxVersions: try reader.integer("REGISTRY_COMPATIBILITY_MAX_VERSIONS", default: 100, range: 1...10_000),
            compatibilityMaxProblems: try reader.integer("REGISTRY_COMPATIBILITY_MAX_PROBLEMS", default: 200, range: 1...10_000),
            maxHeavyRequests: try reader.integer(
                "REGISTRY_MAX_HEAVY_REQUESTS", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...256),
            maxWaitingRequests: try waitingBudget(
                reader, "REGISTRY_MAX_WAITING_REQUESTS", of: ("REGISTRY_MAX_CONNECTIONS", maxConnections)),
            maxWaitingPerAddress: try waitingBudget(
                reader, "REGISTRY_MAX_WAITING_PER_ADDRESS", of: ("REGISTRY_MAX_CONNECTIONS_PER_ADDRESS", maxConnectionsPerAddress))
        )
    }

    /// A waiting budget: by default a quarter of the connections it draws on, and never more
    /// than the half `HTTPServerConfiguration.waitingShare` leaves it (waiters must not hold the
    /// connections short requests and the probes need). Connections without a limit (0) leave
    /// the budget unbounded too, 0 by default.
    private static func waitingBudget(
        _ reader: EnvironmentReader, _ name: String, of connections: (name: String, limit: Int)
    ) throws(ConfigurationError) -> Int {
        let budget = try reader.integer(name, default: connections.limit / 4, range: 0...100_000)
        let share = HTTPServerConfiguration.waitingShare(of: connections.limit)
        guard connections.limit == 0 || budget <= share else {
            throw ConfigurationError(
                description: "\(name) must be at most half of \(connections.name) (\(connections.limit)), so that short requests and probes keep the rest: at most \(share), got \(budget)")
        }
        return budget
    }

    /// The effective settings for the start-up log line, with the database password masked.
    var redacted: [(String, String)] {
        [
            ("listen", "\(listenHost):\(listenPort)"),
            ("database_url", ConnectionString.redacted(databaseURL)),
            ("http_workers", String(httpWorkers)),
            ("http_event_loops", httpEventLoops.map(String.init) ?? "one per core"),
            ("db_pool_size", String(poolSize)),
            ("db_loop_sessions", String(dbLoopSessions)),
            ("max_body_bytes", String(maxBodyBytes)),
            ("connection_timeout_seconds", String(connectionTimeoutSeconds)),
            ("max_connections", String(maxConnections)),
            ("max_connections_per_address", String(maxConnectionsPerAddress)),
            ("request_head_timeout_seconds", String(requestHeadTimeoutSeconds)),
            ("log_level", logLevel.name),
            ("admin_listen", adminListen.map { "\($0.host):\($0.port)" } ?? "same as listen"),
            ("shutdown_grace_seconds", String(shutdownGraceSeconds)),
            ("cache_bytes", String(cacheBytes)),
            ("auth_cache_seconds", String(authCacheSeconds)),
            ("audit_retention_days", auditRetentionDays.map(String.init) ?? "for ever"),
            ("compatibility_max_versions", String(compatibilityMaxVersions)),
            ("compatibility_max_problems", String(compatibilityMaxProblems)),
            ("max_heavy_requests", String(maxHeavyRequests)),
            ("max_waiting_requests", String(maxWaitingRequests)),
            ("max_waiting_per_address", maxWaitingPerAddress == 0 ? "no limit of its own" : String(maxWaitingPerAddress)),
        ]
    }
}

/// A configuration problem, printed as one line before exiting with status 2.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String
}
