import EventLoop
import Foundation
import Synchronization
import Testing

/// An event loop on a thread of its own, as the HTTP server runs one, for starting the store's
/// non-blocking reads where the server would and collecting their answers.
public final class LoopThread: Sendable {
    public let loop: EventLoop

    public init() throws {
        let loop = try EventLoop()
        self.loop = loop
        Thread { loop.run() }.start()
    }

    /// Stops the loop (closing its attachments) and waits for its thread to finish.
    public func stop() {
        loop.stop()
        loop.waitUntilStopped()
    }

    /// Starts `count` reads in one task on the loop, as one turn of a server would, and returns
    /// at once; `Answers.wait` collects them.
    public func start<T: Sendable>(
        _ count: Int, of type: T.Type,
        _ read: @escaping @Sendable (_ index: Int, _ done: @escaping @Sendable (Result<T, any Error>) -> Void) -> Void
    ) -> Answers<T> {
        let answers = Answers<T>(count: count, loop: loop)
        loop.execute {
            for index in 0..<count { read(index) { answers.record(index, $0) } }
        }
        return answers
    }

    /// `start` and `wait` in one.
    public func answers<T: Sendable>(
        _ count: Int, of type: T.Type,
        _ read: @escaping @Sendable (_ index: Int, _ done: @escaping @Sendable (Result<T, any Error>) -> Void) -> Void
    ) -> [Result<T, any Error>] {
        start(count, of: type, read).wait()
    }

    /// Starts `count` calls of the store in one turn of the loop, each as a task that prefers
    /// the loop as a request's does, and returns at once; `Answers.wait` collects them.
    public func start<T: Sendable>(_ count: Int, of type: T.Type, _ call: @escaping @Sendable (_ index: Int) async throws -> T) -> Answers<T> {
        start(count, of: type) { [loop] index, done in
            Task.immediate(executorPreference: loop) {
                do { done(.success(try await call(index))) } catch { done(.failure(error)) }
            }
        }
    }

    /// `start` of calls and `wait` in one.
    public func answers<T: Sendable>(_ count: Int, of type: T.Type, _ call: @escaping @Sendable (_ index: Int) async throws -> T)
        -> [Result<T, any Error>]
    {
        start(count, of: type, call).wait()
    }

    /// One call's answer.
    public func answer<T: Sendable>(of type: T.Type, _ call: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        answers(1, of: type) { _ in try await call() }[0]
    }

    /// One read's answer.
    public func answer<T: Sendable>(
        of type: T.Type, _ read: @escaping @Sendable (_ done: @escaping @Sendable (Result<T, any Error>) -> Void) -> Void
    ) -> Result<T, any Error> {
        answers(1, of: type) { _, done in read(done) }[0]
    }
}

/// The answers to reads started on a loop. Records an issue for an answer given off the
/// loop's thread, given twice, or not given within the limit.
public final class Answers<T: Sendable>: Sendable {
    private let count: Int
    private let loop: EventLoop
    private let state = Mutex(State())
    private let answered = DispatchSemaphore(value: 0)

    private struct State {
        var results: [Int: Result<T, any Error>] = [:]
        var calls: [Int: Int] = [:]
        var offLoop = 0
    }

    init(count: Int, loop: EventLoop) {
        self.count = count
        self.loop = loop
    }

    public func record(_ index: Int, _ result: Result<T, any Error>) {
        let onLoop = EventLoop.current === loop
        let first = state.withLock { state -> Bool in
            state.calls[index, default: 0] += 1
            if !onLoop { state.offLoop += 1 }
            state.results[index] = result
            return state.calls[index] == 1
        }
        if first { answered.signal() }
    }

    /// Every answer, in the order the reads were started; a missing one fails the test.
    public func wait(within limit: Duration = .seconds(60)) -> [Result<T, any Error>] {
        let deadline = DispatchTime.now() + .milliseconds(Int(limit.components.seconds) * 1000)
        for _ in 0..<count where answered.wait(timeout: deadline) == .timedOut {
            Issue.record("a read was not answered within \(limit)")
            break
        }
        // One more turn of the loop, so that a second answer given right after the first shows.
        let turned = DispatchSemaphore(value: 0)
        if loop.execute({ turned.signal() }) { turned.wait() }
        return state.withLock { state in
            if state.offLoop > 0 { Issue.record("\(state.offLoop) answers ran off the loop's thread") }
            for (index, calls) in state.calls where calls > 1 { Issue.record("read \(index) was answered \(calls) times") }
            return (0..<count).map { state.results[$0] ?? .failure(Unanswered()) }
        }
    }
}

public struct Unanswered: Error {}
