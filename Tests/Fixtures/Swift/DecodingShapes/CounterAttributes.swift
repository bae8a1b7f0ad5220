import Foundation
#if canImport(ActivityKit)
import ActivityKit
#endif

/// Every integer and floating-point width, and properties whose type Swift infers.
struct CounterAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var float: Float
        var seconds: TimeInterval
        var optionalCount: Int?
        var window: Range<Int>
    }

    var start = 0
    var label = "Steps"
    var ratio = 1.5
    var enabled = true
    var id = UUID()
    var home = URL(string: "https://example.com")!
}
