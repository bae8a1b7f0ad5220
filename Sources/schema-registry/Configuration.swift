import Foundation
import HTTPServer
import Registry
import RegistryAPI
import RegistryPostgres

/// The service's one configuration, read once from the environment. A bad value stops
/// start-up with one line naming the variable (exit 2), never a half-configured server.
struct Configuration: Sendable {
    var listen: HostPort
    var databaseURL: String
    /// Standbys that serve reads while no primary is reachable; nil: derived from
    /// `databaseURL` when it names several hosts.
    var readDatabaseURL: String?
    /// Reads a standby may answer go there while a primary answers, from a standby lagging at
    /// most this much (`StandbyReads`); 0: only while no primary is reachable.
    var readMaxLagMilliseconds: Int
    /// 1: `/readyz` answers 200 while read-only; 0: 503.
    var readyWhenReadOnly: Int
    var httpWorkers: Int
    /// nil: one per core, at most `httpWorkers`.
    var httpEventLoops: Int?
    var poolSize: Int
    /// Non-blocking sessions each event loop keeps for the reads it drives itself.
    var dbLoopSessions: Int
    /// Sessions each event loop may open for transactions (publishes), one transaction each.
    var dbLoopTransactions: Int
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
    var adminListen: HostPort?
    var shutdownGraceSeconds: Int
    var cacheBytes: Int
    var authCacheSeconds: Int
    /// How long a state change, pin, unpin or delete waits for every live replica to apply it.
    var propagationTimeoutMilliseconds: Int
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
    /// How often each replica adds the reads it counted to the database.
    var usageFlushMilliseconds: Int
    /// Distinct (version, token, day) entries counted in memory between flushes.
    var usageMaxEntries: Int
    var usageRetentionDays: Int
    /// Webhooks may reach loopback, private, link-local and metadata addresses (1), or not (0).
    var webhookAllowPrivate: Int
    /// Webhook URLs may be plain http (1), or https only (0).
    var webhookAllowHTTP: Int
    var webhookWorkers: Int
    var webhookConnectTimeoutMilliseconds: Int
    var webhookTimeoutMilliseconds: Int
    var webhookLeaseSeconds: Int
    var webhookPollMilliseconds: Int
    var webhookRetryFirstSeconds: Int
    var webhookRetryMaxSeconds: Int
    var webhookRetryWindowSeconds: Int
    /// Seals webhook signing secrets at rest; nil: they are stored as issued.
    var webhookSecretKey: WebhookSecretKey?
    /// Keys of earlier rotations that still open secrets sealed with them, until the sealer has
    /// re-sealed those under `webhookSecretKey`.
    var webhookSecretOldKeys: [WebhookSecretKey]

    /// The keys sealed secrets are opened with; nil without a current key.
    var webhookSecretKeyring: WebhookSecretKeyring? {
        webhookSecretKey.map { WebhookSecretKeyring(current: $0, old: webhookSecretOldKeys) }
    }

    /// The main listener's address, as the HTTP server takes it.
    var listenHost: String { listen.host }
    var listenPort: Int { listen.port }

    /// Which webhook destinations the operator allows.
    var webhookDestinations: DestinationPolicy {
        DestinationPolicy(allowPrivate: webhookAllowPrivate == 1, allowHTTP: webhookAllowHTTP == 1)
    }

    /// Every variable the binary reads, in the order they are read (a derived default reads
    /// only settings above it) and listed by `--help`, the README and the deploy-artifact check.
    static let settings: [Setting] = [
        Setting(
            "REGISTRY_LISTEN", "host:port to serve on", .hostPort, default: .value(HostPort(host: "127.0.0.1", port: 8080)),
            into: \.listen),
        Setting(
            "DATABASE_URL",
            "libpq URI or key=value connection string; several hosts need target_session_attrs=read-write", .text,
            default: .required, into: \.databaseURL, check: writersURL, redact: ConnectionString.redacted),
        Setting(
            "REGISTRY_READ_DATABASE_URL",
            "libpq connection string of standbys serving reads that have replayed far enough, and every read while no primary is reachable (target_session_attrs=prefer-standby)",
            SettingValue.text.redacted(by: ConnectionString.redacted).unlessUnset(shown: "DATABASE_URL's hosts when it names several"),
            default: .absent("DATABASE_URL's hosts when it names several"), into: \.readDatabaseURL,
            // Secret: the value is shown redacted already, the words for unset as they are.
            redact: { $0 }),
        Setting(
            "REGISTRY_READ_MAX_LAG_MS",
            "reads of versions, latest, lists, the type index and search go to the standby while a primary answers when it has replayed every change to the application this replica has seen and lags at most this much; 0: only while no primary is reachable",
            .integer(0...600_000), default: .value(2000), into: \.readMaxLagMilliseconds),
        Setting(
            "REGISTRY_READY_WHEN_READ_ONLY", "1: /readyz answers 200 while no primary is reachable and reads are served; 0: 503",
            .integer(0...1), default: .value(1), into: \.readyWhenReadOnly),
        Setting(
            "REGISTRY_HTTP_WORKERS", "threads for reviews and other blocking or CPU-heavy work", .integer(1...256),
            default: .value(16), into: \.httpWorkers),
        Setting(
            "REGISTRY_HTTP_EVENT_LOOPS", "single-threaded HTTP event loops sharing the port",
            SettingValue.integer(1...64).unlessUnset(shown: "one per core"), default: .absent("one per core"),
            into: \.httpEventLoops),
        Setting(
            "REGISTRY_DB_POOL_SIZE", "PostgreSQL connections per process", .integer(1...1000),
            default: .described("REGISTRY_HTTP_WORKERS") { $0.httpWorkers }, into: \.poolSize),
        Setting(
            "REGISTRY_DB_LOOP_SESSIONS", "PostgreSQL connections each event loop adds for its pipelined statements",
            .integer(1...16), default: .value(1), into: \.dbLoopSessions),
        Setting(
            "REGISTRY_DB_LOOP_TRANSACTIONS",
            "PostgreSQL connections each event loop may open for transactions (publishes), each holding one transaction at a time",
            .integer(1...64), default: .value(4), into: \.dbLoopTransactions),
        Setting(
            "REGISTRY_DB_CONNECT_TIMEOUT_SECONDS", "libpq connect_timeout", .integer(2...300), default: .value(3),
            into: \.dbConnectTimeoutSeconds),
        Setting(
            "REGISTRY_DB_STATEMENT_TIMEOUT_MS", "server-side statement_timeout", .integer(1...3_600_000), default: .value(5000),
            into: \.dbStatementTimeoutMilliseconds),
        Setting(
            "REGISTRY_DB_ACQUIRE_TIMEOUT_MS", "longest wait for a pooled connection before 503", .integer(1...600_000),
            default: .value(2000), into: \.dbAcquireTimeoutMilliseconds),
        Setting(
            "REGISTRY_MAX_BODY_BYTES", "largest request body; larger is 413", .integer(1024...67_108_864),
            default: .value(1_048_576), into: \.maxBodyBytes),
        Setting(
            "REGISTRY_MAX_HEADER_BYTES", "memory for one request's headers", .integer(4096...1_048_576),
            default: .value(32_768), into: \.maxHeaderBytes),
        Setting(
            "REGISTRY_CONNECTION_TIMEOUT_SECONDS", "idle or slow connections are closed after this", .integer(1...3600),
            default: .value(30), into: \.connectionTimeoutSeconds),
        Setting(
            "REGISTRY_MAX_CONNECTIONS", "open connections per process", .integer(1...100_000), default: .value(1000),
            into: \.maxConnections),
        Setting(
            "REGISTRY_MAX_CONNECTIONS_PER_ADDRESS", "open connections one client address may hold; 0 for no limit",
            .integer(0...100_000), default: .value(256), into: \.maxConnectionsPerAddress),
        Setting(
            "REGISTRY_REQUEST_HEAD_TIMEOUT_SECONDS", "a new connection must send its request head within this",
            .integer(1...3600), default: .value(10), into: \.requestHeadTimeoutSeconds),
        Setting(
            "REGISTRY_MIGRATIONS_DIR", "folder of NNNN_name.sql migrations",
            SettingValue.text.unlessUnset(shown: "found beside the binary"), default: .absent("found beside the binary"),
            into: \.migrationsDirectory),
        Setting("REGISTRY_LOG_LEVEL", "debug, info, warning or error", .logLevel, default: .value(.info), into: \.logLevel),
        Setting(
            "REGISTRY_ADMIN_LISTEN", "host:port for /healthz, /readyz and /metrics only",
            SettingValue.hostPort.unlessUnset(shown: "same as listen"), default: .absent("served on REGISTRY_LISTEN"),
            into: \.adminListen),
        Setting(
            "REGISTRY_SHUTDOWN_GRACE_SECONDS", "how long in-flight requests may finish after SIGTERM", .integer(0...3600),
            default: .value(10), into: \.shutdownGraceSeconds),
        Setting(
            "REGISTRY_CACHE_BYTES", "memory for published versions and forms, bookkeeping included; 0 disables the cache",
            .integer(0...(64 << 30)), default: .value(8 << 20), into: \.cacheBytes),
        Setting(
            "REGISTRY_AUTH_CACHE_SECONDS", "seconds a token or application lookup may be reused, 0 to 10", .integer(0...10),
            default: .value(2), into: \.authCacheSeconds),
        Setting(
            "REGISTRY_PROPAGATION_TIMEOUT_MS",
            "how long a state change, pin, unpin or delete waits for every live replica to apply it before it answers; 0 answers at once",
            .integer(0...60_000), default: .value(5000), into: \.propagationTimeoutMilliseconds),
        Setting(
            "REGISTRY_AUDIT_RETENTION_DAYS", "delete audit events older than this many days, 1 to 36500",
            SettingValue.integer(1...36_500).unlessUnset(shown: "for ever"), default: .absent("keep for ever"),
            into: \.auditRetentionDays),
        Setting(
            "REGISTRY_COMPATIBILITY_MAX_VERSIONS", "distinct earlier versions one publish or dry run compares, newest first",
            .integer(1...10_000), default: .value(100), into: \.compatibilityMaxVersions),
        Setting(
            "REGISTRY_COMPATIBILITY_MAX_PROBLEMS",
            "groups, new and inherited problems a compatibility report lists, each; totals are always given",
            .integer(1...10_000), default: .value(200), into: \.compatibilityMaxProblems),
        Setting(
            "REGISTRY_MAX_HEAVY_REQUESTS", "publishes, dry runs, uncached forms and push checks of large schemas running at once",
            .integer(1...256), default: .described("one per core") { _ in ProcessInfo.processInfo.activeProcessorCount },
            into: \.maxHeavyRequests),
        Setting(
            "REGISTRY_MAX_WAITING_REQUESTS",
            "change-feed requests that may wait at once, at most half of REGISTRY_MAX_CONNECTIONS; more are 503",
            .integer(0...100_000), default: .described("a quarter of REGISTRY_MAX_CONNECTIONS") { $0.maxConnections / 4 },
            into: \.maxWaitingRequests, check: waitingShare(of: "REGISTRY_MAX_CONNECTIONS", \.maxConnections)),
        Setting(
            "REGISTRY_MAX_WAITING_PER_ADDRESS",
            "change-feed requests one client address may have waiting, at most half of REGISTRY_MAX_CONNECTIONS_PER_ADDRESS; 0 for no limit of its own",
            .integer(0...100_000),
            default: .described("a quarter of REGISTRY_MAX_CONNECTIONS_PER_ADDRESS") { $0.maxConnectionsPerAddress / 4 },
            into: \.maxWaitingPerAddress,
            check: waitingShare(of: "REGISTRY_MAX_CONNECTIONS_PER_ADDRESS", \.maxConnectionsPerAddress),
            shown: { $0 == 0 ? "no limit of its own" : String($0) }),
        Setting(
            "REGISTRY_USAGE_FLUSH_MS",
            "how often each replica adds the version reads it counted in memory to the database; a crash loses at most this much",
            .integer(100...60_000), default: .value(5000), into: \.usageFlushMilliseconds),
        Setting(
            "REGISTRY_USAGE_MAX_ENTRIES",
            "distinct (version, token, day) read counts held in memory between flushes; reads of new ones past it are not counted",
            .integer(1...1_000_000), default: .value(20_000), into: \.usageMaxEntries),
        Setting(
            "REGISTRY_USAGE_RETENTION_DAYS", "delete version read counts of days older than this, 1 to 36500", .integer(1...36_500),
            default: .value(90), into: \.usageRetentionDays),
        Setting(
            "REGISTRY_WEBHOOK_ALLOW_PRIVATE",
            "1 lets webhooks reach loopback, private, link-local, CGNAT, multicast and cloud-metadata addresses",
            .integer(0...1), default: .value(0), into: \.webhookAllowPrivate),
        Setting(
            "REGISTRY_WEBHOOK_ALLOW_HTTP", "1 allows plain http webhook URLs", .integer(0...1), default: .value(0),
            into: \.webhookAllowHTTP),
        Setting(
            "REGISTRY_WEBHOOK_WORKERS", "threads delivering webhooks, each to one subscription at a time", .integer(1...64),
            default: .value(2), into: \.webhookWorkers),
        Setting(
            "REGISTRY_WEBHOOK_CONNECT_TIMEOUT_MS", "longest wait to connect to a webhook receiver", .integer(100...60_000),
            default: .value(5000), into: \.webhookConnectTimeoutMilliseconds),
        Setting(
            "REGISTRY_WEBHOOK_TIMEOUT_MS", "longest one webhook delivery may take, connecting and answering included",
            .integer(100...300_000), default: .value(15_000), into: \.webhookTimeoutMilliseconds),
        Setting(
            "REGISTRY_WEBHOOK_LEASE_SECONDS",
            "how long a replica holds a subscription it delivers to; another takes over after it; at least twice REGISTRY_WEBHOOK_TIMEOUT_MS",
            .integer(1...3600), default: .value(60), into: \.webhookLeaseSeconds,
            check: { name, lease, configuration throws(ConfigurationError) in
                guard lease * 1000 >= 2 * configuration.webhookTimeoutMilliseconds else {
                    throw ConfigurationError(
                        description: "\(name) must be at least twice REGISTRY_WEBHOOK_TIMEOUT_MS (\(configuration.webhookTimeoutMilliseconds) ms), got \(lease)")
                }
            }),
        Setting(
            "REGISTRY_WEBHOOK_POLL_MS", "how often an idle delivery thread looks for due webhooks", .integer(10...60_000),
            default: .value(1000), into: \.webhookPollMilliseconds),
        Setting(
            "REGISTRY_WEBHOOK_RETRY_FIRST_SECONDS", "wait after a webhook's first failed delivery; it doubles with each failure",
            .integer(1...3600), default: .value(5), into: \.webhookRetryFirstSeconds),
        Setting(
            "REGISTRY_WEBHOOK_RETRY_MAX_SECONDS", "longest wait between two webhook delivery attempts", .integer(1...86_400),
            default: .value(3600), into: \.webhookRetryMaxSeconds),
        Setting(
            "REGISTRY_WEBHOOK_RETRY_WINDOW_SECONDS",
            "how long a failing webhook is retried before its subscription is disabled", .integer(1...(30 * 86_400)),
            default: .value(86_400), into: \.webhookRetryWindowSeconds),
        Setting(
            "REGISTRY_WEBHOOK_SECRET_KEY",
            "base64 of 32 random bytes sealing webhook signing secrets at rest with AES-256-GCM; every replica needs the same key",
            SettingValue.webhookSecretKey.unlessUnset(shown: "unset: secrets stored as issued"),
            default: .absent("secrets stored as issued, with a warning at start-up"), into: \.webhookSecretKey,
            // Secret: the start-up line shows only the key's id, which its value already is.
            redact: { $0 }),
        Setting(
            "REGISTRY_WEBHOOK_SECRET_OLD_KEYS",
            "comma-separated earlier REGISTRY_WEBHOOK_SECRET_KEY values, at most \(WebhookSecretKeyring.maxOldKeys), that still open secrets sealed with them; the sealer re-seals those under REGISTRY_WEBHOOK_SECRET_KEY",
            .webhookSecretKeys, default: .described("none") { _ in [] }, into: \.webhookSecretOldKeys,
            check: { name, old, configuration throws(ConfigurationError) in
                guard !old.isEmpty else { return }
                guard let current = configuration.webhookSecretKey else {
                    throw ConfigurationError(description: "\(name) needs REGISTRY_WEBHOOK_SECRET_KEY: old keys only open secrets, the current key seals them")
                }
                if let id = WebhookSecretKeyring(current: current, old: old).collidingID {
                    throw ConfigurationError(
                        description: "\(name) holds a key whose id \(id) is also another key's: generate a new REGISTRY_WEBHOOK_SECRET_KEY")
                }
            },
            // Secret: the start-up line shows only the keys' ids, which its value already is.
            redact: { $0 }),
    ]

    static func fromEnvironment(_ environment: [String: String]) throws(ConfigurationError) -> Configuration {
        var configuration = unread
        for setting in settings { try setting.read(environment, &configuration) }
        return configuration
    }

    /// The effective settings for the start-up log line, every one of them, secrets redacted.
    var redacted: [(String, String)] { Self.settings.map { ($0.logField, $0.shown(self)) } }

    /// What every field holds before its setting is read: values no setting produces, so a
    /// field the table forgets is plain to see (and a test looks for them).
    static let unread = Configuration(
        listen: HostPort(host: "unread", port: .min), databaseURL: "", readDatabaseURL: "", readMaxLagMilliseconds: .min, readyWhenReadOnly: .min,
        httpWorkers: .min, httpEventLoops: .min,
        poolSize: .min, dbLoopSessions: .min, dbLoopTransactions: .min, dbConnectTimeoutSeconds: .min, dbStatementTimeoutMilliseconds: .min,
        dbAcquireTimeoutMilliseconds: .min, maxBodyBytes: .min, maxHeaderBytes: .min, connectionTimeoutSeconds: .min,
        maxConnections: .min, maxConnectionsPerAddress: .min, requestHeadTimeoutSeconds: .min, migrationsDirectory: "",
        logLevel: .error, adminListen: HostPort(host: "unread", port: .min), shutdownGraceSeconds: .min, cacheBytes: .min,
        authCacheSeconds: .min, propagationTimeoutMilliseconds: .min, auditRetentionDays: .min, compatibilityMaxVersions: .min, compatibilityMaxProblems: .min,
        maxHeavyRequests: .min, maxWaitingRequests: .min, maxWaitingPerAddress: .min, usageFlushMilliseconds: .min,
        usageMaxEntries: .min, usageRetentionDays: .min, webhookAllowPrivate: .min,
        webhookAllowHTTP: .min, webhookWorkers: .min, webhookConnectTimeoutMilliseconds: .min, webhookTimeoutMilliseconds: .min,
        webhookLeaseSeconds: .min, webhookPollMilliseconds: .min, webhookRetryFirstSeconds: .min, webhookRetryMaxSeconds: .min,
        webhookRetryWindowSeconds: .min, webhookSecretKey: WebhookSecretKey(bytes: [UInt8](repeating: 0, count: WebhookSecretKey.byteCount)),
        webhookSecretOldKeys: [WebhookSecretKey(bytes: [UInt8](repeating: 0, count: WebhookSecretKey.byteCount))!])

    /// The writers' URL must reach the primary whichever of its hosts that is.
    private static let writersURL: @Sendable (String, String, Configuration) throws(ConfigurationError) -> Void = {
        name, text, _ throws(ConfigurationError) in
        if let problem = ConnectionString.problemForWrites(text) { throw ConfigurationError(description: "\(name) \(problem)") }
    }

    /// A waiting budget may not exceed the half of the connections it draws on that
    /// `HTTPServerConfiguration.waitingShare` leaves it: waiters must not hold the connections
    /// short requests and the probes need. Connections without a limit (0) bound nothing.
    private static func waitingShare(
        of connections: String, _ limit: KeyPath<Configuration, Int> & Sendable
    ) -> @Sendable (String, Int, Configuration) throws(ConfigurationError) -> Void {
        { name, budget, configuration throws(ConfigurationError) in
            let limit = configuration[keyPath: limit]
            let share = HTTPServerConfiguration.waitingShare(of: limit)
            guard limit == 0 || budget <= share else {
                throw ConfigurationError(
                    description: "\(name) must be at most half of \(connections) (\(limit)), so that short requests and probes keep the rest: at most \(share), got \(budget)")
            }
        }
    }
}

/// A configuration problem, printed as one line before exiting with status 2.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String
}
