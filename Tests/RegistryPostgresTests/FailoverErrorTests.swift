import Registry
import RegistryPostgres
import Testing

/// What a client is told while PostgreSQL fails over: always a 503 it can retry after, never a
/// 500, and "read-only" when the server it reached is a standby.
@Suite struct FailoverErrorTests {
    static let transient: [(SQLState, String)] = [
        (.adminShutdown, "database unavailable"), (.crashShutdown, "database unavailable"),
        (.cannotConnectNow, "database unavailable"), (SQLState("08006"), "database unavailable"),
        (SQLState("08001"), "database unavailable"), (.serializationFailure, "database unavailable"),
        (.readOnlySQLTransaction, "the registry is read-only"),
    ]

    @Test(arguments: transient)
    func aFailoverErrorIsA503WithRetryAfter(state: SQLState, message: String) {
        let shown = PGError(kind: .server, sqlState: state, statement: "store_publish_next_free").registryError
        #expect(shown.code == .unavailable)
        #expect(shown.message.hasPrefix(message))
        #expect((shown.retryAfterSeconds ?? 0) >= 1)
        #expect(shown.cause?.sqlState == state.rawValue)
    }

    @Test func aLostOrUnopenableSessionIsA503WithRetryAfter() {
        for kind in [PGError.Kind.connectionFailed, .connectionLost, .timeout] {
            let shown = PGError(kind: kind).registryError
            #expect(shown.code == .unavailable)
            #expect(shown.retryAfterSeconds == 1)
        }
    }

    @Test func aSessionOnAStandbyIsReplacedNotReused() {
        #expect(SQLState.readOnlySQLTransaction.condemnsSession)
        #expect(SQLState.adminShutdown.condemnsSession)
        #expect(!SQLState.uniqueViolation.condemnsSession)
        #expect(!SQLState.serializationFailure.condemnsSession)
    }

    @Test func theReadOnlyRefusalSaysSoAndWhenToComeBack() {
        #expect(PGError.readOnly.code == .unavailable)
        #expect(PGError.readOnly.message.contains("read-only"))
        #expect(PGError.readOnly.retryAfterSeconds == 2)
    }
}

/// Writes must reach the primary whichever host of a multi-host URL it is.
@Suite struct WritersURLTests {
    @Test(arguments: [
        "postgresql://app@db/registry",
        "host=db dbname=registry",
        "postgresql://app@a:5432,b:5432/registry?target_session_attrs=read-write",
        "postgresql://app@a,b/registry?target_session_attrs=primary",
        "host=a,b target_session_attrs=read-write dbname=registry",
    ])
    func isAccepted(url: String) {
        #expect(ConnectionString.problemForWrites(url) == nil)
    }

    @Test(arguments: [
        "postgresql://app@a:5432,b:5432/registry",
        "postgresql://app@a,b/registry?target_session_attrs=any",
        "postgresql://app@a,b/registry?target_session_attrs=prefer-standby",
        "host=a,b dbname=registry",
        "hostaddr=10.0.0.1,10.0.0.2 dbname=registry",
    ])
    func severalHostsWithoutThePrimaryAreRefused(url: String) throws {
        let problem = try #require(ConnectionString.problemForWrites(url))
        #expect(problem.contains("target_session_attrs=read-write"))
    }

    @Test func anUnparsableURLIsLeftToTheConnectionAttempt() {
        #expect(ConnectionString.problemForWrites("host=a password='s3cret") == nil)
    }

    @Test func severalHostsAreCounted() {
        #expect(ConnectionString.namesSeveralHosts("postgresql://a:1,b:2/db?target_session_attrs=read-write"))
        #expect(!ConnectionString.namesSeveralHosts("postgresql://a:1/db"))
    }
}
