import CEpoll
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One thread's reactor. It waits in `epoll_wait` for the descriptors it watches (HTTP
/// connections through libmicrohttpd's epoll descriptor, PostgreSQL sessions' sockets), for an
/// eventfd that other threads write when they hand it a task, and for the earliest deadline of
/// its tickers. Everything it calls runs on its own thread, one call at a time, so what a loop
/// owns (its database sessions, its suspended requests) needs no lock.
///
/// `@unchecked Sendable`: only `execute`, `stop` and `current` may be used from other threads;
/// they go through the task queue and atomics. Everything else is for the loop's own thread.
public final class EventLoop: @unchecked Sendable {
    public typealias Task = @Sendable () -> Void

    private let epoll: Int32
    private let wakeDescriptor: Int32
    private let queue = Mutex(TaskQueue())
    private let stopRequested = Atomic<Bool>(false)
    private let finished = Handoff<Bool>()

    // The loop thread's own state.
    private var watchers: [Int32: Watcher] = [:]
    private var tickers: [any LoopTicker] = []
    private var attachments: [ObjectIdentifier: any LoopAttachment] = [:]
    /// Follow-ups asked for in this turn, by key, in the order first asked.
    private var followUps: [(key: Int, body: () -> Void)] = []

    private struct TaskQueue {
        var tasks: [Task] = []
        var closed = false
    }

    private final class Watcher {
        let handler: (Readiness) -> Void
        init(_ handler: @escaping (Readiness) -> Void) { self.handler = handler }
    }

    public init() throws(EventLoopError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw EventLoopError("epoll_create1 failed: errno \(errno)") }
        wakeDescriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeDescriptor >= 0 else {
            close(epoll)
            throw EventLoopError("eventfd failed: errno \(errno)")
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeDescriptor
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeDescriptor, &event) == 0 else {
            close(wakeDescriptor)
            close(epoll)
            throw EventLoopError("epoll_ctl failed: errno \(errno)")
        }
    }

    deinit {
        close(wakeDescriptor)
        close(epoll)
    }

    /// The loop running on the calling thread, nil on any other thread. Adapters use it to
    /// reach the loop a request is being decided on without the layers between them knowing.
    public static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentKey.key) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    // MARK: - From any thread

    /// Runs `task` on the loop's thread soon, after the events at hand. False (and the task
    /// dropped) once the loop has stopped.
    @discardableResult
    public func execute(_ task: @escaping Task) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.closed else { return false }
            queue.tasks.append(task)
            return true
        }
        // On the loop's own thread the loop runs its tasks before it waits again: no wake-up.
        if accepted && EventLoop.current !== self { signal() }
        return accepted
    }

    /// Runs `body` on the loop's thread and waits for its value; nil (and `body` not run) once
    /// the loop has stopped. For owners that must touch loop-owned state from outside, rarely.
    public func runAndWait<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        if EventLoop.current === self { return body() }
        let handoff = Handoff<T>()
        guard execute({ handoff.set(body()) }) else { return nil }
        return handoff.wait()
    }

    /// Asks `run` to return after the current turn. Attachments are closed first, on the loop.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        signal()
    }

    /// Blocks until `run` has returned (at once if it never started and `stop` was called).
    public func waitUntilStopped() {
        _ = finished.wait()
    }

    // MARK: - On the loop's thread

    /// Serves events on the calling thread until `stop`. Before returning it closes every
    /// attachment (so their waiting work is answered) and runs the tasks left in the queue.
    public func run() {
        pthread_setspecific(Self.currentKey.key, Unmanaged.passUnretained(self).toOpaque())
        defer {
            pthread_setspecific(Self.currentKey.key, nil)
            finished.set(true)
        }
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while !stopRequested.load(ordering: .acquiring) {
            let timeout = millisecondsUntilNextDeadline()
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), timeout)
            }
            if let failure = Self.waitFailure(result: count, errorNumber: errno) { Self.fail(failure) }
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                let descriptor = event.data.fd
                if descriptor == wakeDescriptor {
                    drainWakeDescriptor()
                    continue
                }
                watchers[descriptor]?.handler(Readiness(rawEvents: event.events))
            }
            runTasks()
            runDueTickers()
        }
        closeAttachments()
        queue.withLock { $0.closed = true }
        runTasks()
    }

    /// Watches `descriptor`; `handler` runs on this loop whenever it is ready. Level-triggered:
    /// a readable socket keeps waking the loop until it is read.
    public func watch(_ descriptor: Int32, interest: Interest, _ handler: @escaping (Readiness) -> Void) throws(EventLoopError) {
        var event = epoll_event()
        event.events = interest.epollEvents
        event.data.fd = descriptor
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
            throw EventLoopError("cannot watch descriptor \(descriptor): errno \(errno)")
        }
        watchers[descriptor] = Watcher(handler)
    }

    /// Changes what a watched descriptor waits for (a session with a query still to flush
    /// also waits to write).
    public func update(_ descriptor: Int32, interest: Interest) {
        var event = epoll_event()
        event.events = interest.epollEvents
        event.data.fd = descriptor
        _ = epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event)
    }

    /// Stops watching; call before the descriptor is closed.
    public func unwatch(_ descriptor: Int32) {
        guard watchers.removeValue(forKey: descriptor) != nil else { return }
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil)
    }

    /// Runs `body` once after the tasks at hand, however often it is asked for with the same
    /// key before then: many connections resumed in one turn cost one run of their daemon.
    public func afterTasks(key: Int, _ body: @escaping () -> Void) {
        guard !followUps.contains(where: { $0.key == key }) else { return }
        followUps.append((key, body))
    }

    /// Adds a ticker: its deadline bounds every wait, and `tick` runs once it has passed.
    public func add(_ ticker: any LoopTicker) {
        tickers.append(ticker)
    }

    /// The loop's one instance of an attachment kind (the store's sessions for this loop),
    /// made on first use and closed when the loop stops.
    public func attachment<T: LoopAttachment>(_ key: ObjectIdentifier, make: () -> T) -> T {
        if let existing = attachments[key] as? T { return existing }
        let made = make()
        attachments[key] = made
        return made
    }

    /// Closes every attachment now, answering the work they hold; used by a stopping server
    /// before its last answers are flushed.
    public func closeAttachments() {
        let closing = attachments.values
        attachments = [:]
        for attachment in closing { attachment.close() }
    }

    // MARK: - A loop that cannot wait

    /// Why a wait that returned `result` must end the process, or nil when the loop goes on
    /// (events, a timeout, a signal that interrupted it). Any other failure of `epoll_wait` (a
    /// closed or invalid descriptor, a bad buffer) would fail again at once, forever.
    static func waitFailure(result: Int32, errorNumber: Int32) -> String? {
        guard result < 0, errorNumber != EINTR else { return nil }
        return "epoll_wait failed: \(String(cString: strerror(errorNumber))) (errno \(errorNumber))"
    }

    /// Who hears why a loop stopped the process; stderr unless the program says otherwise.
    private static let fatalReporter = Mutex<@Sendable (String) -> Void>({ reason in
        FileHandle.standardError.write(Data("event loop failed: \(reason)\n".utf8))
    })

    /// Sets who hears why a loop stopped the process (the server's log), before it exits.
    public static func reportFatalFailures(to report: @escaping @Sendable (String) -> Void) {
        fatalReporter.withLock { $0 = report }
    }

    /// A loop that cannot wait serves none of its connections or sessions again, and they would
    /// hang without a word: the reason is reported and the process exits with status 1, as when
    /// the server cannot start, so a supervisor restarts it.
    private static func fail(_ reason: String) -> Never {
        let report = fatalReporter.withLock { $0 }
        report(reason)
        exit(1)
    }

    // MARK: - Internals

    private func signal() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    private func drainWakeDescriptor() {
        var value: UInt64 = 0
        _ = read(wakeDescriptor, &value, 8)
    }

    private func runTasks() {
        while true {
            let tasks = queue.withLock { queue in
                defer { queue.tasks = [] }
                return queue.tasks
            }
            for task in tasks { task() }
            let due = followUps
            followUps = []
            for followUp in due { followUp.body() }
            if tasks.isEmpty && due.isEmpty { return }
        }
    }

    private func runDueTickers() {
        for ticker in tickers {
            // The clock is read after the deadline: a ticker due "now" computes its deadline
            // from the clock too, and must count as due.
            if let deadline = ticker.nextDeadline, deadline <= ContinuousClock.now { ticker.tick() }
        }
    }

    private func millisecondsUntilNextDeadline() -> Int32 {
        if !followUps.isEmpty || queue.withLock({ !$0.tasks.isEmpty }) { return 0 }
        // A loop over the tickers, not `compactMap`: this runs on every turn of the loop.
        var earliest: ContinuousClock.Instant?
        for ticker in tickers {
            if let deadline = ticker.nextDeadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        guard let earliest else { return -1 }
        let remaining = earliest - ContinuousClock.now
        guard remaining > .zero else { return 0 }
        // Rounded up: waking a little late is harmless, waking early spins until the deadline.
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    private static let currentKey = ThreadKey()
}

extension Interest {
    var epollEvents: UInt32 {
        (readable ? EPOLLIN.rawValue : 0) | (writable ? EPOLLOUT.rawValue : 0)
    }
}

extension Readiness {
    init(rawEvents: UInt32) {
        readable = rawEvents & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue) != 0
        writable = rawEvents & EPOLLOUT.rawValue != 0
    }
}

/// The pthread key behind `EventLoop.current`, created once.
private final class ThreadKey: Sendable {
    let key: pthread_key_t
    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }
}

/// One value handed from one thread to others waiting for it.
private final class Handoff<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func set(_ value: T) {
        condition.lock()
        self.value = value
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> T {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
