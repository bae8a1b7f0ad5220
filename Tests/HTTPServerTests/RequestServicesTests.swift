import Foundation
import HTTPServer
import Synchronization
import Testing

/// What a request's task is lent, without a server: work runs where `submit` sends it and
/// comes back to the task; refused work is nil; without a waiting room a wait ends at once.
@Suite struct RequestServicesTests {
    /// Runs each job on a new thread, or refuses every job once `accepting` is false.
    private static func services(accepting: Bool, loopTakesWork: Bool = true) -> RequestServices {
        RequestServices(seat: nil, resources: Threads(accepting: accepting, takesLoopWork: loopTakesWork))
    }

    private struct Threads: ServerResources {
        let accepting: Bool
        let takesLoopWork: Bool
        var roomForWaiting: WaitingRoom? { nil }

        func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
            guard accepting else { return false }
            Thread.detachNewThread { job() }
            return true
        }
    }

    @Test func workRunsWhereItIsSubmittedAndReturnsItsValue() async {
        let ran = Atomic<Int>(0)
        let value = await Self.services(accepting: true).work {
            ran.add(1, ordering: .relaxed)
            return 42
        }
        #expect(value == 42)
        #expect(ran.load(ordering: .relaxed) == 1)
    }

    /// Once the server no longer accepts work (it is stopping), `work` is nil and its body
    /// never runs: the request answers that the server is shutting down.
    @Test func workIsNilOnceNoLongerAccepted() async {
        let ran = Atomic<Int>(0)
        let value = await Self.services(accepting: false).work {
            ran.add(1, ordering: .relaxed)
            return 42
        }
        #expect(value == nil)
        #expect(ran.load(ordering: .relaxed) == 0)
    }

    @Test func withoutAWaitingRoomAWaitAnswersNow() async {
        let room = WaitingRoom(capacity: 10)
        let reason = await Self.services(accepting: true).wait(room.ticket("k"), until: .now + .seconds(60))
        #expect(reason == .answerNow)
        #expect(room.count == 0)
    }

    @Test func acceptsLoopWorkFollowsTheServer() {
        #expect(Self.services(accepting: true, loopTakesWork: true).acceptsLoopWork)
        #expect(!Self.services(accepting: true, loopTakesWork: false).acceptsLoopWork)
    }
}
