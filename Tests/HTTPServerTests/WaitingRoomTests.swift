import Foundation
import Synchronization
import Testing
@testable import HTTPServer

/// The waiting room's wake rules, without a server.
@Suite struct WaitingRoomTests {
    /// Records each wake reason; `wait` blocks until one arrived.
    final class Wakes: Sendable {
        private let reasons = Mutex<[WakeReason]>([])
        private let arrived = DispatchSemaphore(value: 0)

        var callback: @Sendable (WakeReason) -> Void {
            { reason in
                self.reasons.withLock { $0.append(reason) }
                self.arrived.signal()
            }
        }

        func wait() -> [WakeReason] {
            _ = arrived.wait(timeout: .now() + 10)
            return reasons.withLock { $0 }
        }

        var soFar: [WakeReason] { reasons.withLock { $0 } }
    }

    private func request(_ room: WaitingRoom, _ key: String, ticket: WaitingRoom.Ticket? = nil, seconds: Int = 60) -> WaitRequest {
        WaitRequest(ticket: ticket ?? room.ticket(key), deadline: .now + .seconds(seconds)) { _ in .respond(HTTPResponse(status: 200)) }
    }

    @Test func aWakeOfItsKeyWakesAParkedRequestAndOtherKeysDoNot() {
        let room = WaitingRoom(capacity: 10)
        let mine = Wakes()
        room.park(request(room, "feed|1"), wake: mine.callback)
        room.wake("feed|2")
        #expect(mine.soFar.isEmpty)
        #expect(room.count == 1)
        room.wake("feed|1")
        #expect(mine.wait() == [.notified])
        #expect(room.count == 0)
    }

    @Test func aWakeBetweenTicketAndParkingIsNotLost() {
        let room = WaitingRoom(capacity: 10)
        let ticket = room.ticket("feed|1")
        room.wake("feed|1")
        let wakes = Wakes()
        room.park(request(room, "feed|1", ticket: ticket), wake: wakes.callback)
        #expect(wakes.wait() == [.notified])
        #expect(room.count == 0)
    }

    @Test func pastCapacityARequestIsWokenAsFull() {
        let room = WaitingRoom(capacity: 1)
        let first = Wakes()
        let second = Wakes()
        room.park(request(room, "feed|1"), wake: first.callback)
        room.park(request(room, "feed|1"), wake: second.callback)
        #expect(second.wait() == [.full])
        #expect(first.soFar.isEmpty)
    }

    @Test func theDeadlineWakesARequestAndStoppingAnswersTheRestAndEveryLaterOne() {
        let room = WaitingRoom(capacity: 10)
        let short = Wakes()
        let long = Wakes()
        room.park(request(room, "feed|1", seconds: 0), wake: short.callback)
        room.park(request(room, "feed|1", seconds: 60), wake: long.callback)
        #expect(short.wait() == [.deadline])
        #expect(long.soFar.isEmpty)
        room.stop()
        #expect(long.wait() == [.answerNow])
        let late = Wakes()
        room.park(request(room, "feed|1"), wake: late.callback)
        #expect(late.wait() == [.answerNow])
    }
}
