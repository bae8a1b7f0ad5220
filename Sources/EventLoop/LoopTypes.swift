/// What a watched descriptor waits for.
public struct Interest: Sendable, Equatable {
    public var readable: Bool
    public var writable: Bool

    public init(readable: Bool = true, writable: Bool = false) {
        self.readable = readable
        self.writable = writable
    }

    public static let read = Interest(readable: true, writable: false)
    public static let readWrite = Interest(readable: true, writable: true)
}

/// What a descriptor is ready for. A hang-up or an error counts as readable: reading is how
/// the owner learns what happened.
public struct Readiness: Sendable, Equatable {
    public let readable: Bool
    public let writable: Bool
}

/// Something with deadlines of its own (libmicrohttpd's connection timeouts, a query's
/// response timeout): the loop never waits past `nextDeadline`, and calls `tick` once it has
/// passed. Both run on the loop's thread.
public protocol LoopTicker: AnyObject {
    var nextDeadline: ContinuousClock.Instant? { get }
    func tick()
}

/// Per-loop state owned by an adapter (a store's sessions on this loop); closed when the loop
/// stops, on the loop's thread, and must then answer whatever work it still holds.
public protocol LoopAttachment: AnyObject {
    func close()
}

public struct EventLoopError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
