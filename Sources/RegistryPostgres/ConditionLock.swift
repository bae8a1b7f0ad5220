#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// State guarded by a mutex plus a condition variable, for waits with a deadline.
/// `Synchronization.Mutex` has no condition variable, and a pool must park callers until a
/// session is returned or their acquire timeout passes.
///
/// `@unchecked Sendable`: every access to `state` happens with `mutex` held.
final class ConditionLock<State>: @unchecked Sendable {
    private var state: State
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Callers currently parked in `wait`; read under the lock.
    private var waiters = 0

    init(_ initial: State) {
        state = initial
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines are measured on the monotonic clock, immune to wall-clock jumps.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout State, _ waiters: Int) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state, waiters)
    }

    /// Calls `attempt` under the lock until it returns a value, parking between calls until
    /// `signal`/`broadcast` or the deadline. Returns nil when the deadline passes first.
    func wait<R>(until deadline: ContinuousClock.Instant, _ attempt: (inout State) -> R?) -> R? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let value = attempt(&state) { return value }
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return nil }
            var wakeAt = timespec()
            clock_gettime(CLOCK_MONOTONIC, &wakeAt)
            let (seconds, attoseconds) = remaining.components
            var nanoseconds = Int(wakeAt.tv_nsec) + Int(attoseconds / 1_000_000_000)
            var wholeSeconds = Int(wakeAt.tv_sec) + Int(seconds)
            wholeSeconds += nanoseconds / 1_000_000_000
            nanoseconds %= 1_000_000_000
            wakeAt.tv_sec = time_t(wholeSeconds)
            wakeAt.tv_nsec = Int(nanoseconds)
            waiters += 1
            pthread_cond_timedwait(condition, mutex, &wakeAt)
            waiters -= 1
        }
    }

    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
