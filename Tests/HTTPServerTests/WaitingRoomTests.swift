import Foundation
import Synchronization
import Testing
@testable import HTTPServer
#if canImport(Glibc)
import Glibc
#endif

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

    /// Parks under `key` (with a ticket taken now unless given) until `seconds` from now.
    private func park(
        _ room: WaitingRoom, _ key: String, ticket: WaitingRoom.Ticket? = nil, seconds: Int = 60, seat: WaitingRoom.Seat? = nil,
        wake: @escaping @Sendable (WakeReason) -> Void
    ) {
        room.park(ticket ?? room.ticket(key), until: .now + .seconds(seconds), seat: seat, wake: wake)
    }

    @Test func aWakeOfItsKeyWakesAParkedRequestAndOtherKeysDoNot() {
        let room = WaitingRoom(capacity: 10)
        let mine = Wakes()
        park(room, "feed|1", wake: mine.callback)
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
        park(room, "feed|1", ticket: ticket, wake: wakes.callback)
        #expect(wakes.wait() == [.notified])
        #expect(room.count == 0)
    }

    @Test func pastCapacityARequestIsWokenAsFull() {
        let room = WaitingRoom(capacity: 1)
        let first = Wakes()
        let second = Wakes()
        park(room, "feed|1", wake: first.callback)
        park(room, "feed|1", wake: second.callback)
        #expect(second.wait() == [.full])
        #expect(first.soFar.isEmpty)
    }

    /// An IPv4 client address, as the server reads it from a connection.
    static func address(_ text: String) -> ClientAddress {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_addr.s_addr = inet_addr(text)
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) }
        }
    }

    /// Stands for an event loop: the room only tells loops apart.
    final class Loop {}

    private func seat(
        _ address: String, on loop: Loop, loopLimit: Int = .max, addressLoopLimit: Int = .max
    ) -> WaitingRoom.Seat {
        WaitingRoom.Seat(
            eventLoop: ObjectIdentifier(loop), address: Self.address(address), loopLimit: loopLimit,
            addressLoopLimit: addressLoopLimit)
    }

    @Test func pastItsAddressCapacityARequestIsWokenAsFullWhileOtherAddressesStillPark() {
        let room = WaitingRoom(capacity: 10, capacityPerAddress: 2)
        let loop = Loop()
        let parked = (0..<2).map { _ in Wakes() }
        for wakes in parked { park(room, "feed|1", seat: seat("127.0.0.2", on: loop), wake: wakes.callback) }
        let refused = Wakes()
        park(room, "feed|1", seat: seat("127.0.0.2", on: loop), wake: refused.callback)
        #expect(refused.wait() == [.full])
        let other = Wakes()
        park(room, "feed|1", seat: seat("127.0.0.3", on: loop), wake: other.callback)
        #expect(room.count == 3)
        #expect(room.count(from: Self.address("127.0.0.2")) == 2 && room.count(from: Self.address("127.0.0.3")) == 1)
        #expect(parked.allSatisfy(\.soFar.isEmpty) && other.soFar.isEmpty)
    }

    /// Each event loop's connections are bounded on their own, so its waiters are too: a loop
    /// whose share is taken refuses, while the room and another loop still have room.
    @Test func pastItsEventLoopsShareARequestIsWokenAsFullWhileAnotherLoopStillParks() {
        let room = WaitingRoom(capacity: 10)
        let (first, second) = (Loop(), Loop())
        for index in 0..<3 {
            park(room, "feed|1", seat: seat("127.0.0.\(2 + index)", on: first, loopLimit: 3), wake: Wakes().callback)
        }
        let refused = Wakes()
        park(room, "feed|1", seat: seat("127.0.0.9", on: first, loopLimit: 3), wake: refused.callback)
        #expect(refused.wait() == [.full])
        park(room, "feed|1", seat: seat("127.0.0.9", on: second, loopLimit: 3), wake: Wakes().callback)
        #expect(room.count == 4)
        // One address's share of one loop.
        park(room, "feed|2", seat: seat("127.0.0.9", on: second, addressLoopLimit: 1), wake: refused.callback)
        #expect(refused.wait() == [.full, .full])
        #expect(room.count == 4)
    }

    /// A seat is given back however the request leaves (a wake of its key, its deadline, the
    /// server stopping), so an address at its limit can park again at once.
    @Test func everyWayOutOfTheRoomGivesTheSeatBack() {
        let room = WaitingRoom(capacity: 10, capacityPerAddress: 1)
        let loop = Loop()
        let client = Self.address("127.0.0.2")
        for leave in ["wake", "deadline"] {
            let wakes = Wakes()
            park(room, "feed|1", seconds: leave == "deadline" ? 0 : 60, seat: seat("127.0.0.2", on: loop), wake: wakes.callback)
            if leave == "wake" { room.wake("feed|1") }
            #expect(wakes.wait() == [leave == "wake" ? .notified : .deadline], "\(leave)")
            #expect(room.count(from: client) == 0, "\(leave)")
        }
        let last = Wakes()
        park(room, "feed|1", seat: seat("127.0.0.2", on: loop), wake: last.callback)
        #expect(room.count(from: client) == 1)
        room.stop()
        #expect(last.wait() == [.answerNow])
        #expect(room.count(from: client) == 0 && room.count == 0)
    }

    /// Asked before any work: a request whose seat is taken has none, and one without a seat
    /// (made outside a server) counts against the room alone; a stopping room seats everyone,
    /// to answer them at once with what there is.
    @Test func hasSeatTellsWhetherARequestCouldParkNow() {
        let room = WaitingRoom(capacity: 1)
        let request = HTTPRequest(method: "GET", path: "/api/changes")
        #expect(room.hasSeat(for: request))
        park(room, "feed|1", seat: seat("127.0.0.2", on: Loop()), wake: Wakes().callback)
        #expect(!room.hasSeat(for: request))
        room.stop()
        #expect(room.hasSeat(for: request))
    }

    @Test func theDeadlineWakesARequestAndStoppingAnswersTheRestAndEveryLaterOne() {
        let room = WaitingRoom(capacity: 10)
        let short = Wakes()
        let long = Wakes()
        park(room, "feed|1", seconds: 0, wake: short.callback)
        park(room, "feed|1", seconds: 60, wake: long.callback)
        #expect(short.wait() == [.deadline])
        #expect(long.soFar.isEmpty)
        room.stop()
        #expect(long.wait() == [.answerNow])
        let late = Wakes()
        park(room, "feed|1", wake: late.callback)
        #expect(late.wait() == [.answerNow])
    }

    /// The awaited form ends with the reason the callback form gets: a wake of its key (before
    /// or after it parked: the ticket was taken first), and once the room stops, `.answerNow`
    /// at once.
    @Test func anAwaitedWaitEndsWithItsWakeReason() async {
        let room = WaitingRoom(capacity: 10)
        let ticket = room.ticket("feed|1")
        let waiting = Task { await room.wait(ticket, until: .now + .seconds(60)) }
        room.wake("feed|1")
        #expect(await waiting.value == .notified)
        #expect(room.count == 0)
        room.stop()
        #expect(await room.wait(room.ticket("feed|1"), until: .now + .seconds(60)) == .answerNow)
    }
}
