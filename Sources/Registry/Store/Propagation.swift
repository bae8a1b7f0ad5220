/// One replica's row in `replica_feed_positions`, as a propagation read sees it.
public struct ReplicaSighting: Sendable, Equatable {
    public let replicaID: String
    /// How long ago its follower last wrote its row (the heartbeat), by the database's clock.
    public let millisecondsSinceSeen: Int64
    /// Its follower has applied to its caches every change the target position sees.
    public let applied: Bool

    public init(replicaID: String, millisecondsSinceSeen: Int64, applied: Bool) {
        self.replicaID = replicaID
        self.millisecondsSinceSeen = millisecondsSinceSeen
        self.applied = applied
    }
}

/// A read of every replica's feed position against a target: the position of the database just
/// after a change committed (`target`, opaque, given back to later reads of the same wait).
public struct ReplicaPositions: Sendable, Equatable {
    public let target: String
    public let sightings: [ReplicaSighting]

    public init(target: String, sightings: [ReplicaSighting]) {
        self.target = target
        self.sightings = sightings
    }
}

/// How far a committed change has reached the replicas' caches: of the live replicas (those
/// whose follower was seen within `liveWithinMilliseconds`), how many have applied it. A
/// replica not seen for longer is dead or stalled: it is not waited for, and a stalled one
/// fences its own caches (it serves from the database until its follower catches up).
public struct Propagation: Sendable, Equatable {
    /// A follower writes its row at least every second: 5 s without one is a replica gone.
    public static let liveWithinMilliseconds: Int64 = 5000

    public let replicas: Int
    public let applied: Int
    public var complete: Bool { applied == replicas }

    public init(replicas: Int, applied: Int) {
        self.replicas = replicas
        self.applied = applied
    }

    /// The live-replica rule: a sighting counts when seen within the bound (a heartbeat dated
    /// ahead of the statement's clock, by at most the statement's own age, is live too).
    public init(_ sightings: [ReplicaSighting], liveWithinMilliseconds bound: Int64 = Propagation.liveWithinMilliseconds) {
        let live = sightings.filter { $0.millisecondsSinceSeen <= bound }
        self.init(replicas: live.count, applied: live.filter(\.applied).count)
    }
}
