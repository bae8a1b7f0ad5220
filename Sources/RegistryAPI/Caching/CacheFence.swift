import Synchronization

/// Raised while the change follower is late: it has not read the feed for longer than the
/// bound its last read gave (`ChangeFollower`, 3 s by default). Meanwhile the caches that a
/// change makes stale (rendered versions and forms, `latest`) neither answer nor keep
/// anything, so a replica whose follower stalled serves from the database and never a version
/// disabled or deleted elsewhere. The follower's next read applies every change it missed
/// before it lowers the fence again. Never raised before a follower has read once (tools and
/// tests without one).
final class CacheFence: Sendable {
    private static let origin = ContinuousClock.now
    /// Nanoseconds after `origin` past which the fence is raised; `Int64.max` until a first read.
    private let deadline = Atomic<Int64>(.max)

    /// The follower applied a read; the next must come within `bound`.
    func noteRead(bound: Duration) {
        deadline.store(Self.nanoseconds(Self.origin.duration(to: .now) + bound), ordering: .releasing)
    }

    var isRaised: Bool {
        Self.nanoseconds(Self.origin.duration(to: .now)) > deadline.load(ordering: .acquiring)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
