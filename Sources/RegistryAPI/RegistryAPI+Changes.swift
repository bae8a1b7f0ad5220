import Registry

/// What the replica learns from the change feed and the token notifications
/// (`ChangeFollower`), for changes made on any replica, this one included, or without the
/// service. The replica that made a change has already forgotten what it made stale, at once
/// after its commit: this is how the others learn it.
extension RegistryAPI {
    /// Forgets what each change makes stale, and wakes the waiting readers of each application
    /// that changed. A reader may find its change not handed out yet (an older transaction is
    /// still running): it then looks again shortly, as after any read.
    public func apply(_ changes: [CommittedChange]) {
        var woken: Set<Int64> = []
        for change in changes {
            caches.forget(change)
            if woken.insert(change.applicationID).inserted {
                waitingRoom.wake("\(ChangeHandlers.wakeKeyPrefix)\(change.applicationID)")
            }
        }
    }

    /// A token was revoked, or its scope, applications or expiry changed: its grant must be
    /// read again. Failed lookups are kept: a revocation only turns successes into failures,
    /// and they last no longer than the lookup-cache bound.
    public func forgetTokens() {
        caches.tokens.removeAll()
    }

    /// The follower applied a read of the feed (`ChangeFollower`'s `onRead`): the caches may
    /// serve for `bound` more without another (`CacheFence`), and the changes waiting for the
    /// replicas look at their positions again (`PropagationBarrier`).
    public func noteFeedRead(bound: Duration) {
        caches.fence.noteRead(bound: bound)
        waitingRoom.wake(PropagationBarrier.wakeKey)
    }

    /// True while the follower is late and the caches are fenced: every answer comes from the
    /// database (the `registry_cache_fenced` gauge).
    public var cachesFenced: Bool { caches.fence.isRaised }

    /// Forgets everything cached, for when changes may have been missed; waiting readers look
    /// again for the same reason.
    public func flushCaches() {
        caches.flush()
        waitingRoom.wakeAll()
    }
}
