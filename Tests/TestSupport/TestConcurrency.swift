import Foundation
import Synchronization

/// Runs `body` on `count` OS threads released at the same moment, the way HTTP workers call
/// the store, and returns each thread's outcome in index order.
public func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
    let results = Mutex<[Int: Result<T, any Error>]>([:])
    let done = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            gate.wait()
            let result = Result { try body(index) }
            results.withLock { $0[index] = result }
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { gate.signal() }
    done.wait()
    return results.withLock { all in (0..<count).map { all[$0]! } }
}

/// Loopback ports for test servers.
public enum TestPorts {
    /// A port nobody listens on right now, found by letting the kernel pick one.
    public static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestPostgresError("socket failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw TestPostgresError("bind failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Work started on a thread of its own now, whose outcome `result()` waits for: a request
/// left waiting while the test goes on.
public final class Background<T: Sendable>: Sendable {
    private let outcome = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    public init(_ body: @escaping @Sendable () throws -> T) {
        Thread.detachNewThread { [self] in
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }
    }

    /// Waits for the work to end and returns what it returned (or rethrows).
    public func result() throws -> T {
        done.wait()
        done.signal()
        return try outcome.withLock { $0! }.get()
    }
}

/// Polls until `condition` holds or the time runs out; returns whether it held.
public func waitUntil(timeoutSeconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while true {
        if condition() { return true }
        if Date() >= deadline { return false }
        usleep(2_000)
    }
}

/// Runs `body` to its end on the calling thread, as a task that prefers this thread: what the
/// task does after each wait runs here too, so `onThreads` keeps one thread per call and the
/// calls really run at once (the cooperative pool has a thread per core). Off an event loop
/// the store's calls block their thread, as the CLI's do.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let thread = CallingThread()
    let outcome = Mutex<Result<T, any Error>?>(nil)
    Task(executorPreference: thread) {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        thread.finish()
    }
    thread.run()
    return try outcome.withLock { $0! }.get()
}

/// The executor behind `blocking`: jobs queue until the calling thread runs them.
private final class CallingThread: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs queued jobs on this thread until the task has finished.
    func run() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
            } else if finished {
                condition.unlock()
                return
            } else {
                condition.wait()
            }
        }
    }
}
