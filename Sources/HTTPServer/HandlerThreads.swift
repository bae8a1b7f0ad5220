import Foundation
import Synchronization

/// The threads that run handlers which may block (on the database), apart from the event
/// loops, so that a few event loops (one per core) can serve every connection while many
/// more requests wait on I/O. A handler blocks only its worker, never a connection's loop.
final class HandlerThreads: Sendable {
    typealias Job = @Sendable () -> Void

    private struct Queue {
        var jobs: [Job] = []
        var head = 0
        /// Jobs taken off the queue and still running.
        var running = 0
        var accepting = true
        var closed = false

        mutating func take() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            running += 1
            return job
        }

        var isIdle: Bool { head == jobs.count && running == 0 }
    }

    private let queue = Mutex(Queue())
    private let ready = DispatchSemaphore(value: 0)
    private let count: Int

    init(count: Int) {
        self.count = count
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
        let accepted = queue.withLock { queue in
            guard queue.accepting else { return false }
            queue.jobs.append(prepare())
            return true
        }
        if accepted { ready.signal() }
        return accepted
    }

    /// From now on `submit` refuses; what was queued still runs.
    func stopAccepting() {
        queue.withLock { $0.accepting = false }
    }

    /// Waits until every queued job has finished.
    func drain() {
        while !queue.withLock({ $0.isIdle }) { usleep(1_000) }
    }

    /// Lets the threads exit once the queue is empty. Call it only after `drain` and after
    /// the event loops have stopped, so nothing is submitted any more.
    func close() {
        queue.withLock { $0.closed = true }
        for _ in 0..<count { ready.signal() }
    }

    private enum Next {
        case run(Job)
        case wait
        case exit
    }

    private func work() {
        while true {
            ready.wait()
            let next = queue.withLock { queue -> Next in
                if let job = queue.take() { return .run(job) }
                return queue.closed ? .exit : .wait
            }
            switch next {
            case .run(let job):
                job()
                queue.withLock { $0.running -= 1 }
            case .wait:
                continue
            case .exit:
                return
            }
        }
    }
}
