import Foundation

/// The threads that run handlers which may block (on the database), apart from the event
/// loops, so that a few event loops (one per core) can serve every connection while many
/// more requests wait on I/O. A handler blocks only its thread, never a connection's loop.
///
/// The queue sits behind a plain mutex and condition variable: `Synchronization.Mutex` spins
/// before sleeping, and with more threads than cores that spinning was measured to take a
/// third of the CPU of a database-bound request.
final class HandlerThreads: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    /// Jobs taken off the queue and still running.
    private var running = 0
    private var accepting = true
    private var closed = false

    init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "handler-\(index)"
            thread.start()
        }
    }

    /// Queues the job `prepare` returns, to run on the next free thread in arrival order; false
    /// (and `prepare` not called) once `stopAccepting` was called. `prepare` runs under the
    /// queue's lock, so whatever it sets up (a suspended connection) is in place before any
    /// thread can run the job, and `drain` cannot miss it.
    func submit(_ prepare: () -> Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard accepting else { return false }
        jobs.append(prepare())
        condition.signal()
        return true
    }

    /// From now on `submit` refuses; what was queued still runs.
    func stopAccepting() {
        condition.lock()
        accepting = false
        condition.unlock()
    }

    /// Waits until every queued job has finished (polling: it runs once, at shutdown, and
    /// must not make every idle thread wake whenever the queue empties).
    func drain() {
        while true {
            condition.lock()
            let idle = head == jobs.count && running == 0
            condition.unlock()
            if idle { return }
            usleep(1_000)
        }
    }

    /// Lets the threads exit once the queue is empty. Call it only after `drain` and after
    /// the event loops have stopped, so nothing is submitted any more.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            if head < jobs.count {
                let job = jobs[head]
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                running += 1
                condition.unlock()
                job()
                condition.lock()
                running -= 1
            } else if closed {
                condition.unlock()
                return
            } else {
                condition.wait()
            }
        }
    }
}
