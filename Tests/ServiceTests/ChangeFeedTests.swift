import Foundation
import Registry
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// `GET /api/changes` against real server processes on one database. Serialized: the feed hands
/// out only events older than the oldest transaction still running in the whole cluster, and one
/// test here holds a transaction open on purpose; beside the exactly-once test it would hold that
/// test's events back until its deadline.
@Suite(.serialized) struct ChangeFeedTests {
    @Test func concurrentPublishersAndReadersOnTwoReplicasSeeEveryEventExactlyOnceInOneOrder() throws {
        let database = try ServiceDatabase.make()
        let environment = serveEnvironment(database.url, ["REGISTRY_HTTP_WORKERS": "8"])
        let first = try ServiceProcess.serve(environment: environment)
        defer { first.kill() }
        let second = try ServiceProcess.serve(environment: environment)
        defer { second.kill() }
        let ports = [first.port, second.port]
        let tenant = try database.makeTenant(port: ports[0])

        let publishers = 8
        let publishesEach = 6
        let readers = 4
        // Each publisher publishes its own type, then deletes its version 1.
        let expected = publishers * (publishesEach + 1)
        // Readers stop once they have every expected event, or once every publisher is done and
        // a read after that found the feed drained; the deadline only bounds a broken run. So a
        // slow machine makes the test slow, never wrong, and a shortfall means a skipped event.
        let publishersDone = Counter()
        let results = onThreads(publishers + readers) { index -> [String] in
            if index < publishers {
                defer { publishersDone.value.add(1, ordering: .sequentiallyConsistent) }
                let writer = tenant.on(port: ports[index % 2])
                for _ in 0..<publishesEach {
                    let response = try writer.publish("Type\(index)", flightSchema())
                    guard response.status == 200 else { throw RawHTTPError("publish: \(response.status) \(response.bodyText)") }
                }
                let deleted = try writer.request("DELETE", "/api/live_activity_schemas/Type\(index)/1?application=\(tenant.code)")
                guard deleted.status == 200 || deleted.status == 204 else { throw RawHTTPError("delete: \(deleted.status)") }
                return []
            }
            var seen: [String] = []
            var cursor: String?
            var round = 0
            let deadline = Date().addingTimeInterval(300)
            while seen.count < expected && Date() < deadline {
                let allPublished = publishersDone.value.load(ordering: .sequentiallyConsistent) == publishers
                // Alternate replicas and page sizes so pages end anywhere.
                let answer = try tenant.on(port: ports[(index + round) % 2]).changes(after: cursor, wait: 5, pageSize: 1 + round % 7)
                guard answer.status == 200 else { throw RawHTTPError("changes: \(answer.status) \(answer.response.bodyText)") }
                seen += answer.events
                cursor = answer.cursor
                round += 1
                if allPublished && answer.events.isEmpty && !answer.more { break }
            }
            return seen
        }
        var sequences: [[String]] = []
        for result in results {
            switch result {
            case .success(let seen): sequences.append(seen)
            case .failure(let error): Issue.record("\(error)")
            }
        }
        // What the database holds, in feed order: every reader must have read exactly this.
        let stored = try database.query(
            """
            SELECT kind || ' ' || attributes_type || ' ' || version FROM change_events
            WHERE application_id = (SELECT id FROM applications WHERE code = '\(tenant.code)') ORDER BY xid, id
            """
        ).map { try $0.string(0) }
        #expect(stored.count == expected, "the publishers wrote \(stored.count) of \(expected) events")
        let readerSequences = sequences.suffix(readers)
        try #require(readerSequences.count == readers)
        var expectedEvents = Set<String>()
        for publisher in 0..<publishers {
            for version in 1...publishesEach { expectedEvents.insert("published Type\(publisher) \(version)") }
            expectedEvents.insert("deleted Type\(publisher) 1")
        }
        let reference = try #require(readerSequences.first)
        #expect(reference == stored, "missed: \(stored.filter { !reference.contains($0) })")
        #expect(reference.count == expected, "\(reference)")
        #expect(Set(reference) == expectedEvents)
        for sequence in readerSequences {
            #expect(sequence == reference, "every reader sees the same events in the same order")
        }
        // Per type, the order is the order of commits.
        for publisher in 0..<publishers {
            let own = reference.filter { $0.split(separator: " ")[1] == "Type\(publisher)" }
            let expectedOwn = (1...publishesEach).map { "published Type\(publisher) \($0)" } + ["deleted Type\(publisher) 1"]
            #expect(own == expectedOwn, "\(own)")
        }
        // A reader that starts later still reads all of it, from the beginning.
        var cursor: String?
        var late: [String] = []
        while true {
            let page = try tenant.on(port: ports[1]).changes(after: cursor, pageSize: 10)
            late += page.events
            cursor = page.cursor
            if !page.more { break }
        }
        #expect(late == reference)
    }

    /// A transaction cannot write another database's feed, so one left open in another database
    /// of the cluster holds no reader back.
    @Test func aTransactionOpenInAnotherDatabaseDoesNotHoldTheFeedBack() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let start = try tenant.changes(after: "now")

        let neighbour = try ServiceDatabase.make(migrated: false, on: database.cluster)
        let open = try PGConnection.connect(PostgresConfig(databaseURL: neighbour.url))
        _ = try open.simpleQuery("BEGIN")
        _ = try open.simpleQuery("SELECT pg_current_xact_id()")
        defer { _ = try? open.simpleQuery("ROLLBACK") }

        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        let answer = try tenant.changes(after: start.cursor)
        #expect(answer.events == ["published FlightAttributes 1"])
    }

    /// The horizon passes a running transaction of another database, never one of its own, and
    /// never a transaction newer than the snapshot (it is not listed in it yet).
    @Test func theHorizonPassesOnlyAnotherDatabasesRunningTransaction() throws {
        let database = try ServiceDatabase.make()
        let neighbour = try ServiceDatabase.make(migrated: false, on: database.cluster)
        let elsewhere = try PGConnection.connect(PostgresConfig(databaseURL: neighbour.url))
        _ = try elsewhere.simpleQuery("BEGIN")
        let other = try #require(UInt64(try elsewhere.simpleQuery("SELECT pg_current_xact_id()::text").rows[0].string(0)))
        defer { _ = try? elsewhere.simpleQuery("ROLLBACK") }
        let here = try PGConnection.connect(PostgresConfig(databaseURL: database.url))
        _ = try here.simpleQuery("BEGIN")
        let own = try #require(UInt64(try here.simpleQuery("SELECT pg_current_xact_id()::text").rows[0].string(0)))
        defer { _ = try? here.simpleQuery("ROLLBACK") }

        let reader = try PGConnection.connect(PostgresConfig(databaseURL: database.url))
        func horizon() throws -> UInt64 {
            try #require(UInt64(try reader.simpleQuery("SELECT registry_feed_horizon()::text").rows[0].string(0)))
        }
        // Never past its own database's running transaction, whatever finished meanwhile (when
        // nothing did, the snapshot's xmax stops it even earlier; tests running beside this one
        // may finish transactions at any time, so that case cannot be pinned down here).
        #expect(try horizon() <= own)
        // A transaction that finishes later puts both in the snapshot's list of running ones.
        _ = try reader.simpleQuery("SELECT pg_current_xact_id()")
        #expect(try horizon() == own, "stops at its own database's transaction, passing the other (\(other))")
        _ = try here.simpleQuery("ROLLBACK")
        #expect(try horizon() > other)
    }

    /// A transaction the snapshot lists as running but which ended before the horizon looked for
    /// it is placed by what it left: passed when it wrote no event here (whichever database it
    /// ran in), held when it committed one the snapshot cannot see. Otherwise a later statement
    /// could read an older horizon than an earlier one.
    @Test func theHorizonPassesATransactionThatEndedWithoutAnEventHere() throws {
        let database = try ServiceDatabase.make()
        let neighbour = try ServiceDatabase.make(migrated: false, on: database.cluster)
        func begin(_ url: String) throws -> (PGConnection, UInt64) {
            let connection = try PGConnection.connect(PostgresConfig(databaseURL: url))
            _ = try connection.simpleQuery("BEGIN")
            return (connection, try #require(UInt64(try connection.simpleQuery("SELECT pg_current_xact_id()::text").rows[0].string(0))))
        }
        let (elsewhere, other) = try begin(neighbour.url)
        let (empty, _) = try begin(database.url)
        let (writer, writing) = try begin(database.url)
        _ = try writer.simpleQuery("""
            WITH account AS (INSERT INTO accounts (name) VALUES ('horizon') RETURNING id),
            application AS (INSERT INTO applications (code, account_id) SELECT 'HORIZ-ONTES', id FROM account RETURNING id)
            SELECT registry_record_change(id, 'policy_changed', NULL, NULL) FROM application
            """)
        let reader = try PGConnection.connect(PostgresConfig(databaseURL: database.url))
        // A transaction that finishes after theirs puts the three in the snapshot's running list.
        _ = try reader.simpleQuery("SELECT pg_current_xact_id()")
        let taken = try reader.simpleQuery("SELECT pg_current_snapshot()::text").rows[0].string(0)
        func horizon() throws -> UInt64 {
            try #require(UInt64(try reader.simpleQuery("SELECT registry_feed_horizon_of('\(taken)')::text").rows[0].string(0)))
        }
        #expect(try horizon() < writing, "the other database's transaction is passed, this one's open one is not")
        _ = try elsewhere.simpleQuery("ROLLBACK")
        _ = try empty.simpleQuery("COMMIT")
        #expect(try horizon() == writing, "both ended without an event here (the other: \(other)) and are passed")
        _ = try writer.simpleQuery("COMMIT")
        #expect(try horizon() == writing, "its event is not in the snapshot, so it still counts")
    }

    @Test func anEventCommittedAfterAnOlderOpenTransactionWaitsForItAndComesAfterItsEvents() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let start = try tenant.changes(after: "now")
        #expect(start.status == 200 && start.events.isEmpty)

        // An older transaction writes an event and stays open; a newer publish commits first.
        let older = try PGConnection.connect(PostgresConfig(databaseURL: database.url))
        _ = try older.simpleQuery("BEGIN")
        _ = try older.simpleQuery(
            "SELECT registry_record_change(id, 'policy_changed', NULL, NULL) FROM applications WHERE code = '\(tenant.code)'")
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        let held = try tenant.changes(after: start.cursor)
        #expect(held.events.isEmpty, "the newer event must not be handed out before the older transaction ends: \(held.events)")

        // A waiting reader is answered once the older transaction commits, with both, oldest first.
        let waiter = Background { try tenant.changes(after: start.cursor, wait: 20) }
        usleep(300_000)
        _ = try older.simpleQuery("COMMIT")
        let answer = try waiter.result()
        #expect(answer.events == ["policy_changed - -", "published FlightAttributes 1"])
        let after = try tenant.changes(after: answer.cursor)
        #expect(after.events.isEmpty)
    }

    @Test func aWaitingReaderIsWokenByAPublishOnAnotherReplicaAndAnsweredEmptyAtItsDeadline() throws {
        let database = try ServiceDatabase.make()
        // A wait longer than the connection timeout still completes: parked connections do not time out.
        let environment = serveEnvironment(database.url, ["REGISTRY_CONNECTION_TIMEOUT_SECONDS": "1"])
        let first = try ServiceProcess.serve(environment: environment)
        defer { first.kill() }
        let second = try ServiceProcess.serve(environment: environment)
        defer { second.kill() }
        let tenant = try database.makeTenant(port: first.port)
        let start = try tenant.changes()
        #expect(start.status == 200 && start.events.isEmpty && !start.more)

        let clock = ContinuousClock()
        let began = clock.now
        let waiter = Background { try tenant.changes(after: start.cursor, wait: 30) }
        #expect(waitUntil { (try? gauge("registry_waiting_requests", port: first.port)) == 1 })
        #expect(try tenant.on(port: second.port).publish("FlightAttributes", flightSchema()).status == 200)
        let woken = try waiter.result()
        #expect(woken.events == ["published FlightAttributes 1"])
        #expect(clock.now - began < .seconds(20), "answered on the notification, not at the deadline")
        #expect(try gauge("registry_waiting_requests", port: first.port) == 0)

        let timedStart = clock.now
        let empty = try tenant.changes(after: woken.cursor, wait: 3)
        let waited = clock.now - timedStart
        #expect(empty.status == 200 && empty.events.isEmpty)
        #expect(empty.cursor == woken.cursor, "an empty answer keeps the cursor")
        #expect(waited >= .seconds(3) && waited < .seconds(10), "\(waited)")
    }

    @Test func fiveHundredWaitingReadersHoldNoHandlerThreadOrDatabaseConnection() throws {
        let database = try ServiceDatabase.make()
        // All 500 readers come from 127.0.0.1, so the per-address connection limit is lifted
        // (and with it the per-address waiting budget); waiters may hold half the connections.
        let server = try ServiceProcess.serve(
            environment: serveEnvironment(
                database.url,
                [
                    "REGISTRY_HTTP_WORKERS": "4", "REGISTRY_DB_POOL_SIZE": "4", "REGISTRY_HTTP_EVENT_LOOPS": "2",
                    "REGISTRY_DB_LOOP_SESSIONS": "1", "REGISTRY_MAX_CONNECTIONS_PER_ADDRESS": "0",
                    "REGISTRY_MAX_CONNECTIONS": "2000", "REGISTRY_MAX_WAITING_REQUESTS": "1000",
                ]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let start = try tenant.changes()
        let request = RawHTTPRequest(
            target: "/api/changes?application=\(tenant.code)&wait=50&after=\(start.cursor)",
            headers: [(name: "Authorization", value: "Api \(tenant.token)")])
        var connections: [RawHTTPConnection] = []
        for _ in 0..<500 {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 60)
            try connection.write(request.encoded(closeConnection: true))
            connections.append(connection)
        }
        #expect(waitUntil(timeoutSeconds: 30) { (try? gauge("registry_waiting_requests", port: server.port)) == 500 })
        // Background jobs (the webhook queue's poll, the usage flush) take a pool connection for
        // a moment; 500 waiters holding any would keep it above 0 for as long as they wait.
        #expect(waitUntil(timeoutSeconds: 10) { (try? gauge("registry_db_pool_in_use", port: server.port)) == 0 })
        #expect(try gauge("registry_waiting_requests", port: server.port) == 500)
        // At most the pool (4), the change-feed follower (1) and one session per event loop
        // (2), however many wait. The test's own setup session has closed, but PostgreSQL may
        // list its backend for a moment while it exits.
        let sessionCount = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database.name)' AND pid <> pg_backend_pid()"
        #expect(waitUntil(timeoutSeconds: 5) { ((try? database.query(sessionCount).first?.int64(0)) ?? 99) <= 4 + 1 + 2 })
        // Four handler threads, 500 waiting requests: other requests are still served at once.
        let clock = ContinuousClock()
        let began = clock.now
        #expect(try tenant.request("GET", "/api/applications").status == 200)
        #expect(clock.now - began < .seconds(5))

        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        var answered = 0
        for connection in connections {
            let answer = try ChangesAnswer(connection.readResponse())
            if answer.events == ["published FlightAttributes 1"] { answered += 1 }
        }
        #expect(answered == 500)
        #expect(waitUntil { (try? gauge("registry_waiting_requests", port: server.port)) == 0 })
    }

    @Test func pastTheWaitingLimitAReaderIsRefusedWith503AndRetryAfter() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, ["REGISTRY_MAX_WAITING_REQUESTS": "1"]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let waiter = Background { try tenant.changes(wait: 5) }
        #expect(waitUntil { (try? gauge("registry_waiting_requests", port: server.port)) == 1 })
        let refused = try tenant.changes(wait: 5)
        #expect(refused.status == 503, "\(refused.response.bodyText)")
        #expect(refused.response.header("retry-after") == "1")
        // Without waiting, a reader is never refused.
        #expect(try tenant.changes().status == 200)
        #expect(try waiter.result().status == 200)
    }

    @Test func aWaitingReaderIsAnsweredAtOnceWhenTheServerShutsDown() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let clock = ContinuousClock()
        let began = clock.now
        let waiter = Background { try tenant.changes(wait: 50) }
        #expect(waitUntil { (try? gauge("registry_waiting_requests", port: server.port)) == 1 })
        server.send(SIGTERM)
        let answer = try waiter.result()
        #expect(answer.status == 200 && answer.events.isEmpty, "\(answer.response.bodyText)")
        #expect(clock.now - began < .seconds(20))
        #expect(server.waitForExit(timeoutSeconds: 15) == 0)
    }
}

/// A counter the publisher threads share.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
