import Registry
import Testing

/// The live-replica rule of the propagation barrier: only replicas seen within 5 s count, and
/// the change is everywhere when every one of them has applied it.
@Suite struct PropagationTests {
    static func seen(_ id: String, _ milliseconds: Int64, applied: Bool) -> ReplicaSighting {
        ReplicaSighting(replicaID: id, millisecondsSinceSeen: milliseconds, applied: applied)
    }

    @Test func replicasSeenWithinFiveSecondsAreWaitedForAndOlderOnesAreNot() {
        let sightings = [
            Self.seen("a", 0, applied: true), Self.seen("b", 5000, applied: false), Self.seen("dead", 5001, applied: false),
            Self.seen("gone", 3_600_000, applied: true),
        ]
        let propagation = Propagation(sightings)
        #expect(propagation == Propagation(replicas: 2, applied: 1))
        #expect(!propagation.complete)
    }

    @Test func itIsCompleteWhenEveryLiveReplicaApplied() {
        #expect(Propagation([Self.seen("a", 10, applied: true), Self.seen("b", 999, applied: true)]).complete)
        #expect(Propagation([Self.seen("a", 10, applied: true), Self.seen("dead", 9000, applied: false)]) == Propagation(replicas: 1, applied: 1))
    }

    /// A heartbeat dated a little after the statement's clock (it committed meanwhile) is live.
    @Test func aRowSeenAfterTheStatementBeganIsLive() {
        #expect(Propagation([Self.seen("a", -3, applied: false)]) == Propagation(replicas: 1, applied: 0))
    }

    /// No replica follows the feed (none has written its row yet): nothing to wait for.
    @Test func noReplicaIsComplete() {
        #expect(Propagation([]).complete)
    }

    @Test func theBoundIsTheCallersToo() {
        #expect(Propagation([Self.seen("a", 1500, applied: false)], liveWithinMilliseconds: 1000) == Propagation(replicas: 0, applied: 0))
    }
}
