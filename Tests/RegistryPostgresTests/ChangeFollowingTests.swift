import Foundation
import Registry
import Testing
import TestSupport

@testable import RegistryPostgres

/// How replicas learn of changes: no write transaction notifies (the notifying transaction's
/// commit lock serialised every publish), and the feed of every application, read after a
/// position, reports each committed change early and again once final, skipping nothing.
@Suite struct ChangeFollowingTests {
    /// A transaction that issued NOTIFY commits under a cluster-wide lock. Only the token
    /// triggers may notify: nothing a publish, delete or policy change runs does.
    @Test func onlyTheTokenTriggersCallPgNotify() throws {
        let f = try Fixture()
        let notifying = try f.pool.withConnection { connection in
            try connection.simpleQuery(
                """
                SELECT p.proname FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
                WHERE n.nspname = 'public' AND p.prosrc ILIKE '%notify%' ORDER BY p.proname
                """
            ).rows.map { try $0.string(0) }
        }
        #expect(notifying == ["registry_notify_token_changed", "registry_notify_token_revoked"])
        let tables = try f.pool.withConnection { connection in
            try connection.simpleQuery(
                """
                SELECT DISTINCT c.relname FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid
                JOIN pg_proc AS p ON p.oid = t.tgfoid WHERE p.prosrc ILIKE '%notify%' ORDER BY c.relname
                """
            ).rows.map { try $0.string(0) }
        }
        #expect(tables == ["api_tokens"])
    }

    /// Publishing leaves a hint owed for the follower to send after the commit; the publish's
    /// own transaction sent nothing, so a session listening on the channel receives nothing.
    @Test func aPublishOwesAHintAndSendsNoNotificationItself() async throws {
        let f = try Fixture()
        let listener = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        _ = try listener.simpleQuery("LISTEN \(ChangeFollower.channel)")
        #expect(!f.pool.changeHints.take())
        try await f.publish("Hinted")
        #expect(f.pool.changeHints.take(), "the commit owes the other replicas a hint")
        #expect(!f.pool.changeHints.take(), "taken once")
        _ = try await f.store.delete(application: f.application, attributesType: "Hinted", version: 1, by: .cli)
        #expect(f.pool.changeHints.take())
        // A notification sent inside the transactions would have been delivered at their commit,
        // before the calls above returned; the round trip below makes sure it would have arrived.
        _ = try listener.simpleQuery("SELECT 1")
        #expect(try listener.notifications(waitingUpTo: 0).isEmpty)
    }

    @Test func payloadsOnTheChannel() {
        #expect(ChangeFollower.Notice("feed") == .feed)
        #expect(ChangeFollower.Notice("token_revoked|12") == .token)
        // Anything else (an older build's payload) is not understood: everything is flushed.
        #expect(ChangeFollower.Notice("schema_deleted|1:2:Type") == .unknown)
        #expect(ChangeFollower.Notice("feed|1") == .unknown)
        #expect(ChangeFollower.Notice("") == .unknown)
    }

    /// Transactions commit in any order: an event committed after a newer one is reported when
    /// it commits, once, and the newer one was reported at once, without waiting for it.
    @Test func eachChangeIsReportedOnceWhenItCommitsWhateverTheOrder() async throws {
        let f = try Fixture()
        let start = try f.pool.withConnection { try PostgresSchemaStore.followStart().run(on: $0) }
        func read(_ position: FeedPosition, limit: Int = 100) throws -> FollowedPage {
            try f.pool.withConnection { try PostgresSchemaStore.followRead(after: position, limit: limit).run(on: $0) }
        }
        let change = { (kind: ChangeKind, type: String?, version: Int32?) in
            CommittedChange(applicationID: f.application.id, kind: kind, attributesType: type, version: version)
        }
        let older = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        _ = try older.simpleQuery("BEGIN")
        _ = try older.simpleQuery("SELECT registry_record_change(\(f.application.id), 'policy_changed', NULL, NULL)")
        try await f.publish("Newer")

        let newer = try read(start)
        #expect(newer.changes == [change(.published, "Newer", 1)])
        #expect(!newer.overflowed)
        let again = try read(newer.position)
        #expect(again.changes.isEmpty, "reported once")

        _ = try older.simpleQuery("COMMIT")
        let late = try read(again.position)
        #expect(late.changes == [change(.policyChanged, nil, nil)])
        #expect(try read(late.position).changes.isEmpty)
        // Read from the start, both come in feed order.
        #expect(try read(start).changes == [change(.policyChanged, nil, nil), change(.published, "Newer", 1)])
    }

    /// More changes than one read takes are not read: the follower forgets everything instead.
    @Test func pastTheLimitAReadSaysSoAndMovesOn() async throws {
        let f = try Fixture()
        let start = try f.pool.withConnection { try PostgresSchemaStore.followStart().run(on: $0) }
        for _ in 1...3 { try await f.publish("Many") }
        func read(_ position: FeedPosition, limit: Int) throws -> FollowedPage {
            try f.pool.withConnection { try PostgresSchemaStore.followRead(after: position, limit: limit).run(on: $0) }
        }
        let exact = try read(start, limit: 3)
        #expect(!exact.overflowed)
        #expect(exact.changes.compactMap(\.version) == [1, 2, 3])
        let over = try read(start, limit: 2)
        #expect(over.overflowed && over.changes.isEmpty)
        #expect(try read(over.position, limit: 2).changes.isEmpty, "the position moved past what was not read")
    }
}
