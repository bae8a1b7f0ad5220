import EventLoop
import Foundation
import Synchronization
import Testing
import TestSupport

/// The reactor both adapters run on: everything it calls runs on its own thread, one call at a
/// time; other threads reach it only through `execute` and `stop`.
@Suite struct EventLoopTests {
    /// A loop running on its own thread, stopped (and waited for) by `finish`.
    private final class Running: Sendable {
        let loop: EventLoop

        init() throws {
            let loop = try EventLoop()
            self.loop = loop
            Thread.detachNewThread { loop.run() }
        }

        func finish() {
            loop.stop()
            loop.waitUntilStopped()
        }

        /// Runs `body` on the loop and waits for its value.
        func onLoop<T: Sendable>(_ body: @escaping @Sendable (EventLoop) -> T) -> T? {
            let loop = loop
            return loop.runAndWait { body(loop) }
        }
    }

    @Test func tasksFromManyThreadsRunOnTheLoopThreadInOrderPerThread() throws {
        let running = try Running()
        defer { running.finish() }
        let seen = Mutex<[Int: [Int]]>([:])
        let loopThreadTasks = Atomic<Int>(0)
        let results = onThreads(8) { thread in
            for index in 0..<200 {
                running.loop.execute {
                    if EventLoop.current === running.loop { loopThreadTasks.add(1, ordering: .relaxed) }
                    seen.withLock { $0[thread, default: []].append(index) }
                }
            }
        }
        #expect(results.count == 8)
        #expect(waitUntil { loopThreadTasks.load(ordering: .relaxed) == 1600 })
        #expect(seen.withLock { $0 }.values.allSatisfy { $0 == Array(0..<200) })
        #expect(EventLoop.current == nil, "no loop runs on the test's thread")
    }

    @Test func aWatchedDescriptorWakesTheLoopUntilItIsRead() throws {
        let running = try Running()
        defer { running.finish() }
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]); close(descriptors[1]) }
        let readEnd = descriptors[0]
        let received = Mutex<[UInt8]>([])
        #expect(running.onLoop { loop in
            (try? loop.watch(readEnd, interest: .read) { readiness in
                guard readiness.readable else { return }
                var byte: UInt8 = 0
                if read(readEnd, &byte, 1) == 1 { received.withLock { $0.append(byte) } }
            }) != nil
        } == true)
        for byte: UInt8 in [1, 2, 3] {
            var value = byte
            _ = write(descriptors[1], &value, 1)
        }
        // Level-triggered: three bytes, one read per wake-up, all three arrive.
        #expect(waitUntil { received.withLock { $0 } == [1, 2, 3] })
        _ = running.onLoop { $0.unwatch(readEnd) }
        var late: UInt8 = 4
        _ = write(descriptors[1], &late, 1)
        _ = running.onLoop { _ in 0 }
        #expect(received.withLock { $0 } == [1, 2, 3], "an unwatched descriptor calls nothing")
    }

    /// Tasks the loop gives itself run before it waits again, and follow-ups asked for in one
    /// turn under one key run once, after those tasks.
    @Test func followUpsRunOncePerTurnAfterTheTasks() throws {
        let running = try Running()
        defer { running.finish() }
        let order = Mutex<[String]>([])
        _ = running.onLoop { loop in
            for index in 0..<3 {
                loop.execute {
                    order.withLock { $0.append("task \(index)") }
                    loop.afterTasks(key: 7) { order.withLock { $0.append("follow-up 7") } }
                }
            }
            loop.afterTasks(key: 8) { order.withLock { $0.append("follow-up 8") } }
            return 0
        }
        #expect(waitUntil { order.withLock { $0.count } == 5 })
        #expect(order.withLock { $0 } == ["follow-up 8", "task 0", "task 1", "task 2", "follow-up 7"])
    }

    @Test func aTickerRunsWhenItsDeadlinePassesWithoutAnyEvent() throws {
        let running = try Running()
        defer { running.finish() }
        let ticks = Counter()
        _ = running.onLoop { $0.add(CountingTicker(after: .milliseconds(50), ticks: ticks)) }
        #expect(waitUntil { ticks.value.load(ordering: .relaxed) == 1 })
    }

    @Test func stoppingClosesAttachmentsOnTheLoopAndRefusesLaterTasks() throws {
        let running = try Running()
        let closed = Counter()
        let same = running.onLoop { loop in
            let key = ObjectIdentifier(Recording.self)
            return loop.attachment(key) { Recording(closed) } === loop.attachment(key) { Recording(closed) }
        }
        #expect(same == true, "one attachment per kind and loop")
        running.finish()
        #expect(closed.value.load(ordering: .relaxed) == 1)
        #expect(!running.loop.execute {}, "a stopped loop takes no task")
        #expect(running.loop.runAndWait { 1 } == nil, "nor waits for one")
    }
}

/// Ticks once, `delay` after it was made.
private final class CountingTicker: LoopTicker {
    private let ticks: Counter
    private var deadline: ContinuousClock.Instant?

    init(after delay: Duration, ticks: Counter) {
        deadline = .now + delay
        self.ticks = ticks
    }

    var nextDeadline: ContinuousClock.Instant? { deadline }

    func tick() {
        ticks.value.add(1, ordering: .relaxed)
        deadline = nil
    }
}

private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

private final class Recording: LoopAttachment {
    let closed: Counter
    init(_ closed: Counter) { self.closed = closed }
    func close() { closed.value.add(1, ordering: .relaxed) }
}
