import Synchronization

/// A clock a test moves by hand, so lookup-cache lifetimes are exact however loaded the machine
/// is: nothing expires until the test says time has passed.
public final class TestClock: Sendable {
    private let seconds: Mutex<Double>

    public init(startingAt start: Double = 1_000_000) {
        seconds = Mutex(start)
    }

    public func now() -> Double { seconds.withLock { $0 } }

    public func advance(by interval: Double) { seconds.withLock { $0 += interval } }
}
