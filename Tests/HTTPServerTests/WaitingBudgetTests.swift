import EventLoop
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import HTTPServer

/// Parked requests hold connections, and libmicrohttpd at its connection limit stops accepting
/// rather than refusing: waiters are bounded in all, per client address and per event loop, well
/// under the connections, refused before they wait, and the refused give their connection back,
/// so other clients' short requests are still served.
@Suite struct WaitingBudgetTests {
    /// `/wait` waits in the room (its refusal is a 503 with `Retry-After` that closes the
    /// connection); anything else answers at once on the loop, or on a handler thread for `/work`. Records each `/wait`'s event loop and
    /// whether it parked.
    private final class WaitServer: Sendable {
        let server: HTTPServer
        let room: WaitingRoom
        private let tally = Tally()

        /// Per event loop: `/wait` requests seen, and those refused for want of a seat.
        private final class Tally: Sendable {
            let perLoop = Mutex<[ObjectIdentifier: (arrived: Int, refused: Int)]>([:])
        }

        init(_ configuration: HTTPServerConfiguration, room: WaitingRoom) throws {
            self.room = room
            let tally = tally
            server = HTTPServer(
                configuration: configuration,
                respond: { request in
                    switch request.path {
                    case "/wait":
                        let loop = ObjectIdentifier(EventLoop.current!)
                        tally.perLoop.withLock { $0[loop, default: (0, 0)].arrived += 1 }
                        let reason = await request.services!.wait(room.ticket("k"), until: .now + .seconds(60))
                        guard reason == .full else { return HTTPResponse(status: 200, body: Array("\(reason)".utf8)) }
                        tally.perLoop.withLock { $0[loop, default: (0, 0)].refused += 1 }
                        // The refusal gives its connection back: the budget is there to keep connections free.
                        return HTTPResponse(
                            status: 503, headers: [("Retry-After", "1")], body: Array("full".utf8), closesConnection: true)
                    case "/ask":
                        // What an application checks before any work for a request that would wait.
                        let seat = room.hasSeat(for: request)
                        return HTTPResponse(status: seat ? 200 : 503, body: Array("seat: \(seat)".utf8), closesConnection: !seat)
                    case "/work":
                        return await request.services!.work { HTTPResponse(status: 200, body: Array("work".utf8)) }
                            ?? HTTPResponse(status: 503)
                    default: return HTTPResponse(status: 200, body: Array("now".utf8))
                    }
                },
                waitingRoom: room,
                rejection: { _ in HTTPResponse(status: 503) })
            try server.start()
        }

        var port: Int { server.port }
        var perLoop: [ObjectIdentifier: (arrived: Int, refused: Int)] { tally.perLoop.withLock { $0 } }
        var refused: Int { perLoop.values.reduce(0) { $0 + $1.refused } }
        var settled: Int { perLoop.values.reduce(0) { $0 + $1.arrived } }

        deinit { server.stop(graceSeconds: 1) }
    }

    /// A keep-alive `/wait` from `source`, once the server has parked or refused it: a refusal
    /// must close the connection itself. One at a time, so that the refused have closed before
    /// more arrive and the counts below are exact.
    private func waiter(_ test: WaitServer, from source: String) throws -> (RawHTTPConnection, parked: Bool) {
        let (settled, refused) = (test.settled, test.refused)
        let connection = try RawHTTPConnection(port: test.port, timeoutSeconds: 10, sourceAddress: source)
        try connection.write(RawHTTPRequest(target: "/wait").encoded(closeConnection: false))
        #expect(waitUntil { test.settled == settled + 1 && test.room.count + test.refused == settled + 1 })
        return (connection, test.refused == refused)
    }

    /// Whether `/ask` from `source` finds a seat; a refusal closes its connection.
    private func ask(_ test: WaitServer, from source: String) throws -> Bool {
        let asking = try RawHTTPConnection(port: test.port, timeoutSeconds: 10, sourceAddress: source)
        defer { asking.close() }
        try asking.write(RawHTTPRequest(target: "/ask").encoded(closeConnection: false))
        let seat = try asking.readResponse().bodyText == "seat: true"
        if !seat { #expect(try asking.readToEOF().isEmpty, "a response that closes its connection does") }
        return seat
    }

    /// The refused answer 503 with `Retry-After` and close their connections; returns how many.
    private func expectRefusals(_ connections: [RawHTTPConnection], count: Int, _ what: String) throws {
        var refused = 0
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 503 && response.header("retry-after") == "1", "\(what): \(response.status)")
            #expect(try connection.readToEOF().isEmpty, "\(what): the refused connection is closed")
            refused += 1
        }
        #expect(refused == count, "\(what)")
    }

    /// Another address's requests, on the loop and on a handler thread, are all answered, and
    /// in the time the other connection tests allow.
    private func expectServed(_ port: Int, from source: String, requests: Int = 20) throws {
        let clock = ContinuousClock()
        let began = clock.now
        var answered = 0
        for index in 0..<requests {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 5, sourceAddress: source)
            defer { connection.close() }
            try connection.write(RawHTTPRequest(target: index.isMultiple(of: 2) ? "/now" : "/work").encoded(closeConnection: true))
            if try connection.readResponse().status == 200 { answered += 1 }
        }
        #expect(answered == requests)
        #expect(clock.now - began < .seconds(5))
    }

    @Test func waitersPastTheProcessAndPerAddressBudgetsAre503AndClosedWhileAnotherAddressIsServed() throws {
        // 40 connections, 16 per address: at most 20 and 8 may wait; the room promises 12 and 4.
        let test = try WaitServer(
            HTTPServerConfiguration(workers: 1, eventLoops: 1, connectionLimit: 40, connectionLimitPerAddress: 16),
            room: WaitingRoom(capacity: 12, capacityPerAddress: 4))
        var parked: [RawHTTPConnection] = []
        // Three addresses to their own limit and past it, then the room is full: a fourth
        // address is refused too.
        for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
            let sent = try (0..<6).map { _ in try waiter(test, from: source) }
            #expect(sent.map(\.parked) == [true, true, true, true, false, false], "\(source) parks four")
            try expectRefusals(sent.filter { !$0.parked }.map(\.0), count: 2, "\(source) past its four")
            parked += sent.filter(\.parked).map(\.0)
            if source == "127.0.0.2" {
                // Asked before any work: no seat for the address at its limit, one for another.
                #expect(try ask(test, from: source) == false && ask(test, from: "127.0.0.5") == true)
            }
        }
        #expect(try ask(test, from: "127.0.0.5") == false, "the room is full")
        let fourth = try (0..<3).map { _ in try waiter(test, from: "127.0.0.5") }
        #expect(fourth.allSatisfy { !$0.parked })
        try expectRefusals(fourth.map(\.0), count: 3, "past the room's twelve")
        #expect(test.room.count == 12 && test.refused == 9)
        try expectServed(test.port, from: "127.0.0.9")
        // The parked ones are still there, and answer when woken.
        test.room.wake("k")
        for connection in parked { #expect(try connection.readResponse().bodyText == "notified") }
        #expect(test.room.count == 0)
    }

    /// Each daemon stops accepting at its own share of the connections, so waiters are counted
    /// per loop too: however the kernel spreads them, no loop has more than half its share
    /// parked, and a short request landing on any loop is served.
    @Test func noEventLoopLetsWaitersHoldMoreThanHalfItsConnections() throws {
        // 16 connections over two loops: 8 each, 4 of which may wait; the room allows 8 in all.
        let test = try WaitServer(
            HTTPServerConfiguration(workers: 1, eventLoops: 2, connectionLimit: 16), room: WaitingRoom(capacity: 8))
        // Refused ones are closed by the server before the next arrives, so no loop is at its
        // connection limit when a waiter comes.
        let sent = try (0..<30).map { index in try waiter(test, from: "127.0.0.\(2 + index % 3)") }
        let perLoop = test.perLoop
        #expect(perLoop.count == 2, "the kernel spread 30 connections over both loops")
        for (_, tally) in perLoop {
            #expect(tally.arrived - tally.refused <= 4, "parked on one loop: \(tally)")
        }
        #expect(test.room.count <= 8)
        try expectRefusals(sent.filter { !$0.parked }.map(\.0), count: 30 - test.room.count, "past each loop's four")
        try expectServed(test.port, from: "127.0.0.9")
        test.room.wake("k")
    }

    @Test func aRoomPromisingWaitersMoreThanHalfTheConnectionsDoesNotStart() throws {
        let cases: [(HTTPServerConfiguration, WaitingRoom, String)] = [
            (HTTPServerConfiguration(connectionLimit: 40), WaitingRoom(capacity: 21), "of connectionLimit 40"),
            (
                HTTPServerConfiguration(connectionLimit: 40, connectionLimitPerAddress: 16),
                WaitingRoom(capacity: 20, capacityPerAddress: 9), "of connectionLimitPerAddress 16"
            ),
        ]
        for (configuration, room, named) in cases {
            let server = HTTPServer(
                configuration: configuration, respond: { _ in HTTPResponse(status: 200) }, waitingRoom: room,
                rejection: { _ in HTTPResponse(status: 503) })
            #expect {
                try server.start()
            } throws: { error in
                "\(error)".contains(named)
            }
        }
        // At half, and without a per-address limit of its own, it starts.
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(connectionLimit: 40, connectionLimitPerAddress: 16),
            respond: { _ in HTTPResponse(status: 200) }, waitingRoom: WaitingRoom(capacity: 20), rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        server.stop(graceSeconds: 0)
    }
}
