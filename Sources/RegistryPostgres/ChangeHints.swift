#if canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// Owed wake-up hints: set after a commit that wrote the change feed (a publish, a delete, a
/// policy change), taken by this process's `ChangeFollower`, which then sends one `NOTIFY` for
/// all of them on its own session, outside any data transaction. A publish's own transaction
/// must not notify: a transaction that issued `NOTIFY` holds a cluster-wide lock through its
/// commit, so such transactions commit one at a time.
///
/// Noting a change costs one atomic exchange; only the change that finds no hint owed also
/// writes a byte to a pipe, which wakes the follower from its wait.
public final class ChangeHints: Sendable {
    private let owed = Atomic<Bool>(false)
    private let committed = Atomic<UInt64>(0)
    /// The pipe's ends, non-blocking; -1 when it could not be made (the follower then sends
    /// owed hints when it wakes for its timer).
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// A change of the feed committed on this process: the other replicas should read the feed.
    func noteCommittedChange() {
        committed.add(1, ordering: .sequentiallyConsistent)
        guard !owed.exchange(true, ordering: .acquiringAndReleasing), writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// How many changes this process has committed (noted before each is answered): a read
    /// of the feed that starts after loading it covers them all (`StandbyReads`).
    var committedCount: UInt64 { committed.load(ordering: .sequentiallyConsistent) }

    /// Whether a hint is owed, without taking it.
    var isOwed: Bool { owed.load(ordering: .acquiring) }

    /// Takes the owed hint, if any: the caller sends it.
    func take() -> Bool {
        owed.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Readable once a hint became owed; the follower waits on it beside its session's socket.
    var descriptor: Int32 { readEnd }

    /// Empties the pipe after a wake-up, so the next owed hint wakes the follower again.
    func drain() {
        guard readEnd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
