import Foundation
#if canImport(ActivityKit)
import ActivityKit
#endif

/// A food delivery, from the order to the door.
struct DeliveryAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var stage: Stage
        /// The delivery window shown as a timer.
        var eta: ClosedRange<Date>
        var courier: Courier?
        var total: Money
        var itemsLeft: Int
        var progress: Double
        var isLate: Bool
        var notes: [String]
        var extras: [String: Int]
        var lastUpdate: Date
    }

    var orderNumber: String
    var orderID: UUID
    var restaurant: String
    var tip: Money?
    var trackingURL: URL
}
