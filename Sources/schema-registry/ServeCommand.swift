import Dispatch
import EventLoop
import Foundation
import HTTPServer
import Registry
import RegistryAPI
import RegistryPostgres
import Synchronization

/// `schema-registry serve`. Start-up order: configuration → database pool → migrations check
/// → HTTP; shutdown runs in reverse on SIGTERM or SIGINT: readiness turns 503, the listener
/// stops accepting, in-flight requests get the grace period, then the pool closes.
enum ServeCommand {
    static func run(environment: [String: String]) throws {
        let configuration = try Configuration.fromEnvironment(environment)
        MallocTuning.apply(environment: environment)
        MallocTuning.returnFreedMemory(everySeconds: 2)
        let logger = Logger(minimumLevel: configuration.logLevel)
        EventLoop.reportFatalFailures { reason in logger.log(.error, "event loop failed", ["error": .string(reason)]) }
        let pool = Database.pool(configuration)
        let migrator = Database.migrator(configuration, pool: pool)
        if let problem = try migrator.status().problem {
            Console.fail(problem, status: 1)
        }
        let shuttingDown = ShutdownFlag()
        let metrics = Metrics()
        let apiForGauges = Mutex<RegistryAPI?>(nil)
        let webhooksForGauges = Mutex<WebhookDeliverer?>(nil)
        let operations = Operations(
            unreadyReason: { readiness(shuttingDown: shuttingDown, migrator: migrator, pool: pool) },
            gauges: {
                gauges(pool: pool, api: apiForGauges.withLock { $0 }) + StandbyReadGauges.read(pool)
                    + (webhooksForGauges.withLock { $0 }.map { WebhookGauges.read($0, logger: logger) } ?? [])
            },
            isReadOnly: { pool.mode == .readOnly }, readOnlyIsReady: configuration.readyWhenReadOnly == 1)
        let store = PostgresSchemaStore(pool: pool, webhookSecretKey: configuration.webhookSecretKey)
        let janitor = purgeExpiredKeysPeriodically(store: store, logger: logger)
        let backfill = indexFieldPathsUntilDone(pool: pool, logger: logger)
        let auditPruner = configuration.auditRetentionDays.map { days in
            pruneAuditEventsPeriodically(olderThanDays: days, pool: pool, logger: logger)
        }
        let api = RegistryAPI(
            store: store, logger: logger, metrics: metrics, operations: operations,
            operationalRoutes: configuration.adminListen == nil,
            caching: CacheSettings(
                responseBytes: configuration.cacheBytes, lookupSeconds: Double(configuration.authCacheSeconds),
                entityTagSalt: "\(BuildInfo.version) \(BuildInfo.commit)",
                propagationTimeoutMilliseconds: configuration.propagationTimeoutMilliseconds),
            reviewing: ReviewSettings(
                maxComparedVersions: configuration.compatibilityMaxVersions,
                maxReportedProblems: configuration.compatibilityMaxProblems,
                concurrentHeavyRequests: configuration.maxHeavyRequests,
                // A request waiting for a permit holds no thread, only its suspended connection
                // and its body, which the connection limits bound already; the 5 s wait is what
                // keeps the queue short.
                waitingHeavyRequests: ReviewSettings.waitingHeavyRequestsWhenServing),
            waitingRoom: WaitingRoom(
                capacity: configuration.maxWaitingRequests, capacityPerAddress: configuration.maxWaitingPerAddress),
            usage: UsageSettings(maxEntries: configuration.usageMaxEntries),
            webhookDestinations: configuration.webhookDestinations)
        apiForGauges.withLock { $0 = api }
        let usageFlusher = UsageFlusher(api: api, everyMilliseconds: configuration.usageFlushMilliseconds, logger: logger)
        let usagePruner = pruneUsagePeriodically(olderThanDays: configuration.usageRetentionDays, store: store, logger: logger)
        let webhooks = webhookDeliverer(configuration, pool: pool, logger: logger)
        webhooksForGauges.withLock { $0 = webhooks }
        webhooks.start()
        let follower = ChangeFollower(
            pool: pool, onChanges: { api.apply($0) }, onTokenChange: { api.forgetTokens() }, onRestart: { api.flushCaches() },
            onRead: { api.noteFeedRead(bound: $0) })
        follower.start()
        let positionPruner = prunePositionsPeriodically(store: store, logger: logger)
        var servers = [
            HTTPServer(
                configuration: httpConfiguration(configuration, host: configuration.listenHost, port: configuration.listenPort),
                respond: api.respond, waitingRoom: api.waitingRoom, rejection: api.reject)
        ]
        if let admin = configuration.adminListen {
            let operationsAPI = RegistryAPI.operationsOnly(metrics: metrics, operations: operations, logger: logger)
            var adminConfiguration = httpConfiguration(configuration, host: admin.host, port: admin.port)
            adminConfiguration.workers = 1
            servers.append(
                HTTPServer(
                    configuration: adminConfiguration, respond: operationsAPI.respond, waitingRoom: operationsAPI.waitingRoom,
                    rejection: operationsAPI.reject))
        }
        for server in servers { try server.start() }
        var fields: JSONObject = ["version": .string(BuildInfo.version), "commit": .string(BuildInfo.commit), "port": .number(String(servers[0].port))]
        for (key, value) in configuration.redacted { fields[key] = .string(value) }
        logger.log(.info, "serving", fields)
        let secretSealer = configuration.webhookSecretKeyring.map { keyring in
            sealWebhookSecretsPeriodically(keyring: keyring, pool: pool, logger: logger)
        }
        if configuration.webhookSecretKey == nil {
            logger.log(
                .warning, "webhook signing secrets are stored as issued, in plain text: set REGISTRY_WEBHOOK_SECRET_KEY to seal them",
                [:])
        }

        waitForTerminationSignal()
        shuttingDown.raise()
        logger.log(.info, "shutting down", ["in_flight": .number(String(servers[0].inFlightRequests))])
        let main = servers[0]
        main.quiesce()
        let grace = Double(configuration.shutdownGraceSeconds)
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            main.stop(graceSeconds: grace)
            drained.signal()
        }
        // A handler still blocked when the grace period ends must not keep the process alive.
        if drained.wait(timeout: .now() + grace + 1) == .timedOut {
            logger.log(.warning, "grace period over; abandoning requests", ["in_flight": .number(String(main.inFlightRequests))])
            exit(1)
        }
        // Every request has been answered: the last reads they counted go to the database
        // before the pool closes.
        usageFlusher.stop()
        servers.dropFirst().forEach { $0.stop(graceSeconds: 1) }
        webhooks.stop(waitingSeconds: 1)
        follower.stop()
        janitor.cancel()
        backfill.cancel()
        auditPruner?.cancel()
        secretSealer?.cancel()
        usagePruner.cancel()
        positionPruner.cancel()
        pool.close()
        logger.log(.info, "stopped")
        exit(0)
    }

    /// The webhook delivery threads. Each names itself in leases and the attempt log by host
    /// and process id, so a restarted replica is a new holder.
    private static func webhookDeliverer(_ configuration: Configuration, pool: ConnectionPool, logger: Logger) -> WebhookDeliverer {
        let transport = WebhookHTTPTransport(
            policy: configuration.webhookDestinations, connectTimeoutMilliseconds: configuration.webhookConnectTimeoutMilliseconds,
            totalTimeoutMilliseconds: configuration.webhookTimeoutMilliseconds)
        let settings = WebhookDeliverer.Settings(
            threads: configuration.webhookWorkers, leaseSeconds: Double(configuration.webhookLeaseSeconds),
            pollSeconds: Double(configuration.webhookPollMilliseconds) / 1000,
            backoff: WebhookBackoff(
                firstDelaySeconds: Double(configuration.webhookRetryFirstSeconds),
                maxDelaySeconds: Double(configuration.webhookRetryMaxSeconds),
                retryWindowSeconds: Double(configuration.webhookRetryWindowSeconds)))
        return WebhookDeliverer(
            pool: pool, transport: transport, keyring: configuration.webhookSecretKeyring, settings: settings,
            replica: "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)", clock: WallClock.now,
            cursorToken: RegistryAPI.feedCursorToken,
            onError: { error in logger.log(.warning, "webhook delivery failed", RegistryError.logFields(of: error)) },
            onUnreadableSecret: { subscription, reason in
                logger.log(
                    .warning, "webhook not delivered: its signing secret does not open",
                    ["webhook_id": .number(String(subscription)), "error": .string(reason.description)])
            })
    }

    private static func httpConfiguration(_ configuration: Configuration, host: String, port: Int) -> HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: host,
            port: port,
            workers: configuration.httpWorkers,
            eventLoops: configuration.httpEventLoops,
            maxBodyBytes: configuration.maxBodyBytes,
            connectionMemoryLimitBytes: configuration.maxHeaderBytes,
            connectionTimeoutSeconds: configuration.connectionTimeoutSeconds,
            connectionLimit: configuration.maxConnections,
            connectionLimitPerAddress: configuration.maxConnectionsPerAddress,
            requestHeadTimeoutSeconds: configuration.requestHeadTimeoutSeconds
        )
    }

    /// Ready means: not shutting down, the database answers, and its migrations are the ones
    /// this binary was built with. With no primary but a standby answering, nothing is wrong
    /// here: the probe then reports read-only (`Operations.isReadOnly`).
    private static func readiness(shuttingDown: ShutdownFlag, migrator: Migrator, pool: ConnectionPool) -> String? {
        if shuttingDown.isRaised { return "shutting down" }
        do {
            return try migrator.status().problem
        } catch {
            guard pool.mode == .readOnly, let standby = pool.standby else { return "database unreachable" }
            do {
                return try Migrator(pool: standby, directory: migrator.directory).status().problem
            } catch {
                return "database unreachable"
            }
        }
    }

    private static func gauges(pool: ConnectionPool, api: RegistryAPI?) -> [Gauge] {
        let stats = pool.stats
        let loop = pool.loopStats
        let cache = api?.cacheStatistics ?? (bytes: 0, entries: 0, hits: 0, misses: 0)
        let usage = api?.usageStatistics ?? (entries: 0, droppedReads: 0)
        return [
            Gauge("registry_usage_entries", "Version read counts held in memory until the next flush.", value: Double(usage.entries)),
            Gauge(
                "registry_usage_dropped_reads_total", "Version reads not counted because REGISTRY_USAGE_MAX_ENTRIES was reached.",
                value: Double(usage.droppedReads), type: "counter"),
            Gauge("registry_cache_bytes", "Bytes of versions and forms held in memory.", value: Double(cache.bytes)),
            Gauge("registry_cache_entries", "Versions and forms held in memory.", value: Double(cache.entries)),
            Gauge("registry_cache_hits_total", "Response-cache hits since start.", value: Double(cache.hits), type: "counter"),
            Gauge("registry_cache_misses_total", "Response-cache misses since start.", value: Double(cache.misses), type: "counter"),
            Gauge("registry_db_pool_size", "Most PostgreSQL connections the pool keeps.", value: Double(stats.size)),
            Gauge("registry_db_pool_in_use", "Pooled connections serving a request now.", value: Double(stats.inUse)),
            Gauge("registry_db_pool_waiting", "Requests waiting for a pooled connection.", value: Double(stats.waiting)),
            Gauge(
                "registry_db_read_only", "1 while no primary database is reachable and a standby serves reads (writes answer 503).",
                value: pool.mode == .readOnly ? 1 : 0),
            Gauge(
                "registry_cache_fenced", "1 while the change follower is late and every answer is read from the database, not the caches.",
                value: api?.cachesFenced == true ? 1 : 0),
            Gauge("registry_db_unreachable", "1 while neither a primary nor a standby could be reached.", value: pool.mode == .unreachable ? 1 : 0),
            Gauge("registry_db_loop_sessions", "PostgreSQL sessions the event loops hold for their own statements.", value: Double(loop.open)),
            Gauge(
                "registry_db_loop_statements_in_flight", "Statements (reads, one-statement writes) sent on the event loops' sessions, not answered yet.",
                value: Double(loop.inFlight)),
            Gauge("registry_db_loop_statements_waiting", "Statements waiting for an event loop's session.", value: Double(loop.waiting)),
            Gauge(
                "registry_waiting_requests", "Change-feed requests parked until a change or their deadline (a connection each; no thread, no database session).",
                value: Double(api?.waitingRoom.count ?? 0)),
            Gauge(
                "registry_heavy_requests_waiting", "Large publishes, dry runs and forms queued for a heavy-work permit (no thread).",
                value: Double(api?.heavyRequestsWaiting ?? 0)),
            Gauge(
                "registry_build_info", "Build of this process.", labels: ["version": BuildInfo.version, "commit": BuildInfo.commit],
                value: 1),
        ]
    }

    /// Idempotency keys live 24 hours; every replica purges expired ones every ten minutes (the
    /// DELETE is idempotent, so replicas need no coordination).
    private static func purgeExpiredKeysPeriodically(store: PostgresSchemaStore, logger: Logger) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .background))
        timer.schedule(deadline: .now() + 60, repeating: 600)
        timer.setEventHandler {
            do {
                let purged = try store.purgeExpiredIdempotencyKeys()
                logger.log(.debug, "purged expired idempotency keys", ["count": .number(String(purged))])
            } catch {
                logger.log(.warning, "could not purge expired idempotency keys", RegistryError.logFields(of: error))
            }
        }
        timer.resume()
        return timer
    }

    /// With a retention set, every replica deletes audit events past it once an hour (and a
    /// few seconds after start), in small batches that never hold a long lock; replicas need
    /// no coordination because each batch deletes what is there.
    private static func pruneAuditEventsPeriodically(olderThanDays days: Int, pool: ConnectionPool, logger: Logger)
        -> DispatchSourceTimer
    {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .background))
        timer.schedule(deadline: .now() + 5, repeating: 3600)
        timer.setEventHandler {
            do {
                let pruned = try AuditLog.prune(olderThanDays: days, pool: pool)
                logger.log(pruned > 0 ? .info : .debug, "pruned audit events", ["count": .number(String(pruned)), "older_than_days": .number(String(days))])
            } catch {
                logger.log(.warning, "could not prune audit events", RegistryError.logFields(of: error))
            }
        }
        timer.resume()
        return timer
    }

    /// Every replica deletes version read counts past the retention once an hour (and a few
    /// seconds after start), in small batches, like the audit trail's pruning.
    /// Every replica forgets, hourly, the feed positions of replicas not seen for an hour
    /// (restarted or removed processes): one small statement, so replicas need no coordination.
    private static func prunePositionsPeriodically(store: PostgresSchemaStore, logger: Logger) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .background))
        timer.schedule(deadline: .now() + 10, repeating: 3600)
        timer.setEventHandler {
            do {
                let pruned = try store.pruneReplicaPositions(notSeenForSeconds: 3600)
                logger.log(pruned > 0 ? .info : .debug, "pruned replica feed positions", ["count": .number(String(pruned))])
            } catch {
                logger.log(.warning, "could not prune replica feed positions", RegistryError.logFields(of: error))
            }
        }
        timer.resume()
        return timer
    }

    private static func pruneUsagePeriodically(olderThanDays days: Int, store: PostgresSchemaStore, logger: Logger) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .background))
        timer.schedule(deadline: .now() + 5, repeating: 3600)
        timer.setEventHandler {
            do {
                let pruned = try store.pruneUsage(olderThanDays: days, batchSize: 1000)
                logger.log(pruned > 0 ? .info : .debug, "pruned version reads", ["count": .number(String(pruned)), "older_than_days": .number(String(days))])
            } catch {
                logger.log(.warning, "could not prune version reads", RegistryError.logFields(of: error))
            }
        }
        timer.resume()
        return timer
    }

    /// With a key set, every replica seals the signing secrets still stored as issued and
    /// re-seals those sealed with an old key (`REGISTRY_WEBHOOK_SECRET_OLD_KEYS`) under the
    /// current one, a few seconds after start and then hourly (secrets a replica without the key,
    /// or with the old key still current, wrote meanwhile during a rolling deployment are sealed
    /// at the next pass). Every pass logs one line with its counts, so an operator rotating the
    /// key sees when no secret is left under an old key; it warns about secrets sealed with a key
    /// the keyring does not hold, which this replica cannot sign with. Log lines name key ids
    /// only. Each subscription is one compare-and-set statement, so replicas need no coordination.
    private static func sealWebhookSecretsPeriodically(keyring: WebhookSecretKeyring, pool: ConnectionPool, logger: Logger) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .background))
        timer.schedule(deadline: .now() + 2, repeating: 3600)
        let byID: ([String: Int]) -> JSONValue = { counts in
            var object: JSONObject = [:]
            for (id, count) in counts.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { object[id] = .number(String(count)) }
            return .object(object)
        }
        timer.setEventHandler {
            do {
                let outcome = try WebhookSecretSealer(pool: pool, keyring: keyring).run()
                if outcome.sealed > 0 {
                    logger.log(.info, "sealed webhook signing secrets", ["webhooks": .number(String(outcome.sealed)), "key": .string(keyring.current.id)])
                }
                if !keyring.old.isEmpty {
                    let remaining = outcome.sealedWithOldKeys.values.reduce(0, +)
                    logger.log(
                        remaining == 0 ? .info : .warning, "re-sealed webhook signing secrets under the current key",
                        [
                            "webhooks": .number(String(outcome.resealed)), "key": .string(keyring.current.id),
                            "old_keys": .array(keyring.old.map { .string($0.id) }),
                            "secrets_under_old_keys": .number(String(remaining)), "under_old_keys": byID(outcome.sealedWithOldKeys),
                        ])
                }
                if !outcome.sealedWithOtherKeys.isEmpty {
                    let others = outcome.sealedWithOtherKeys.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                    logger.log(
                        .warning, "webhook signing secrets are sealed with another key: their deliveries fail on this replica",
                        [
                            "key": .string(keyring.current.id), "other_keys": .array(others.map { .string($0.key) }),
                            "secrets": .number(String(others.reduce(0) { $0 + $1.value })),
                        ])
                }
            } catch {
                logger.log(.warning, "could not seal webhook signing secrets", RegistryError.logFields(of: error))
            }
        }
        timer.resume()
        return timer
    }

    /// Stores the field paths of versions published before they were stored (search by field
    /// finds them once done), a few seconds after start and then every minute until none is
    /// left: a replica that starts while the database is down tries again. Batches are small
    /// and any number of replicas may run them at once.
    private static func indexFieldPathsUntilDone(pool: ConnectionPool, logger: Logger) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .background))
        timer.schedule(deadline: .now() + 3, repeating: 60)
        timer.setEventHandler { [timer] in
            do {
                let indexed = try FieldPathBackfill(pool: pool).run()
                if indexed > 0 { logger.log(.info, "stored field paths for search", ["versions": .number(String(indexed))]) }
                timer.cancel()
            } catch {
                logger.log(.warning, "could not store field paths for search", RegistryError.logFields(of: error))
            }
        }
        timer.resume()
        return timer
    }

    /// Blocks until SIGTERM or SIGINT arrives.
    private static func waitForTerminationSignal() {
        let received = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { received.signal() }
            source.resume()
            sources.append(source)
        }
        received.wait()
        sources.forEach { $0.cancel() }
    }
}

/// Set once when a termination signal arrives; readiness reads it on every probe.
final class ShutdownFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .sequentiallyConsistent) }
    var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
}
