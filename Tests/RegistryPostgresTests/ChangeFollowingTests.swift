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
    @Test func aPublishOwesAHintAndSendsNoNotificationItself() throws {
        let f = try Fixture()
        let listener = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        _ = try listener.simpleQuery("LISTEN \(ChangeFollower.channel)")
        #expect(!f.pool.changeHints.take())
        try f.publish("Hinted")
        #expect(f.pool.changeHints.take(), "the commit owes the other replicas a hint")
        #expect(!f.pool.changeHints.take(), "taken once")
        _ = try f.store.delete(application: f.application, attributesType: "Hinted", version: 1, by: .cli)
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

    /// An event committed after an older transaction that is still open is reported at once,
    /// but not final; once the older one commits both are final, in feed order, and the early
    /// one is not reported early again.
    @Test func aChangeIsReportedEarlyAndAgainOnceFinalInFeedOrder() throws {
        let f = try Fixture()
        let start = try f.pool.withConnection { try PostgresSchemaStore.followStart().run(on: $0) }
        func read(_ position: FeedPosition) throws -> FollowedPage {
            try f.pool.withConnection { try PostgresSchemaStore.followRead(after: position, limit: 100).run(on: $0) }
        }
        let older = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        _ = try older.simpleQuery("BEGIN")
        _ = try older.simpleQuery("SELECT registry_record_change(\(f.application.id), 'policy_changed', NULL, NULL)")
        try f.publish("Newer")

        let early = try read(start)
        let change = { (kind: ChangeKind, type: String?, version: Int32?, isFinal: Bool) in
            CommittedChange(applicationID: f.application.id, kind: kind, attributesType: type, version: version, isFinal: isFinal)
        }
        #expect(early.changes == [change(.published, "Newer", 1, false)])
        #expect(early.held && !early.full)
        let again = try read(early.position)
        #expect(again.changes.isEmpty, "an early change is reported early once")
        #expect(again.held)

        _ = try older.simpleQuery("COMMIT")
        let final = try read(again.position)
        #expect(final.changes == [change(.policyChanged, nil, nil, true), change(.published, "Newer", 1, true)])
        #expect(!final.held)
        #expect(try read(final.position).changes.isEmpty, "nothing is final twice")
    }

    /// A full page says so, and the next read goes on after it: nothing is skipped.
    @Test func pagesFollowOnWithoutSkipping() throws {
        let f = try Fixture()
        var position = try f.pool.withConnection { try PostgresSchemaStore.followStart().run(on: $0) }
        for _ in 1...5 { try f.publish("Paged") }
        var versions: [Int32] = []
        var reads = 0
        while reads < 10 {
            let page = try f.pool.withConnection { try PostgresSchemaStore.followRead(after: position, limit: 2).run(on: $0) }
            reads += 1
            versions += page.changes.filter(\.isFinal).compactMap(\.version)
            position = page.position
            if !page.full { break }
        }
        #expect(versions == [1, 2, 3, 4, 5])
        #expect(reads == 3)
    }
}
