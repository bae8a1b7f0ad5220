import Testing

@testable import RegistryPostgres

/// The required replay position per application (`RequiredPositions`): raised by the feed reads
/// that named the application, by every restart, never lowered, and for an application without
/// an entry of its own (never changed, or evicted) at or past anything its entry could have held.
@Suite struct RequiredPositionsTests {
    @Test func nothingIsKnownBeforeTheFirstRead() {
        let positions = RequiredPositions(capacity: 4)
        #expect(positions.required(for: 1) == 0)
    }

    @Test func aReadRaisesOnlyTheApplicationsItNamed() {
        var positions = RequiredPositions(capacity: 4)
        positions.raiseAll(to: 100)
        positions.raise([1], to: 200)
        positions.raise([2, 3], to: 300)
        #expect(positions.required(for: 1) == 200)
        #expect(positions.required(for: 2) == 300)
        #expect(positions.required(for: 3) == 300)
        #expect(positions.required(for: 4) == 100, "unchanged since the restart")
    }

    @Test func noPositionEverGoesBack() {
        var positions = RequiredPositions(capacity: 4)
        positions.raiseAll(to: 500)
        positions.raiseAll(to: 400)
        #expect(positions.required(for: 9) == 500)
        positions.raise([1], to: 900)
        positions.raise([1], to: 700)
        #expect(positions.required(for: 1) == 900)
        positions.raise([2], to: 450)
        #expect(positions.required(for: 2) == 500, "an entry below the restart floor does not lower it")
    }

    @Test func aRestartRaisesEveryApplicationAndDropsWhatItCovers() {
        var positions = RequiredPositions(capacity: 4)
        positions.raiseAll(to: 100)
        positions.raise([1], to: 200)
        positions.raise([2], to: 400)
        positions.raiseAll(to: 300)
        #expect(positions.required(for: 1) == 300)
        #expect(positions.required(for: 2) == 400)
        #expect(positions.required(for: 3) == 300)
        #expect(positions.count == 1, "application 1's entry is covered by the restart")
    }

    /// The least recently raised applications are evicted first; one evicted requires the
    /// highest position evicted, never less than its own entry was.
    @Test func evictionKeepsTheBoundAndFallsBackToTheHighestEvicted() {
        var positions = RequiredPositions(capacity: 3)
        positions.raiseAll(to: 10)
        positions.raise([1], to: 500)  // least recently raised, highest
        positions.raise([2], to: 100)
        positions.raise([3], to: 200)
        positions.raise([2], to: 150)  // 2 raised again: 3 is now older than it
        positions.raise([4], to: 300)
        #expect(positions.count == 3)
        #expect(positions.required(for: 1) == 500, "evicted: at or past its entry")
        #expect(positions.required(for: 2) == 150, "kept: its own entry")
        #expect(positions.required(for: 3) == 200)
        #expect(positions.required(for: 4) == 300)
        #expect(positions.required(for: 99) == 500, "never seen: the highest evicted")
        positions.raise([1], to: 250)
        #expect(positions.required(for: 1) == 500, "raised again after eviction: never lowered")
    }

    @Test func anEvictedApplicationRequiresNoLessThanItsEntry() {
        var positions = RequiredPositions(capacity: 2)
        positions.raiseAll(to: 1)
        positions.raise([1], to: 100)
        positions.raise([2], to: 200)
        positions.raise([3], to: 300)
        #expect(positions.count <= 2)
        #expect(positions.required(for: 1) >= 100)
        #expect(positions.required(for: 2) >= 200)
        #expect(positions.required(for: 3) == 300)
    }

    /// Many applications: the map stays within its capacity, and every application's
    /// requirement is at or past the position of each read that named it.
    @Test func manyApplicationsStayWithinTheCapacity() {
        var positions = RequiredPositions(capacity: 100)
        positions.raiseAll(to: 1)
        var raisedTo: [Int64: UInt64] = [:]
        for step in 1...1000 {
            let application = Int64(step % 337)
            let position = UInt64(step * 10)
            positions.raise([application], to: position)
            raisedTo[application] = position
            #expect(positions.count <= 100)
        }
        for (application, position) in raisedTo {
            #expect(positions.required(for: application) >= position)
        }
        #expect(
            positions.required(for: Int64(990 % 337)) == 9900, "a recently raised application is not held back to the newest read")
    }
}
