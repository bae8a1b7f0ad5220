import ActivityKit
import SwiftUI
import WidgetKit

struct FoodDeliveryAttributes: ActivityAttributes {
    public typealias ContentState = DeliveryStatus

    public struct DeliveryStatus: Codable, Hashable {
        /// Where the order is.
        var stage: Stage
        /// Expected arrival at the door.
        var estimatedArrival: Date
        var courier: Courier?
        var itemsReady: Int = 0
        var note: String? = nil
    }

    enum Stage: String, Codable, CaseIterable {
        case received, preparing
        case pickedUp = "picked_up"
        case onTheWay = "on_the_way"
        case delivered

        var title: String {
            switch self {
            case .received: "Order received"
            case .preparing: "Preparing"
            case .pickedUp: "Picked up"
            case .onTheWay: "On the way"
            case .delivered: "Delivered"
            }
        }
    }

    struct Courier: Codable, Hashable {
        var name: String
        var vehicle: String
        var rating: Double?
        var position: Coordinate?
    }

    struct Coordinate: Codable, Hashable {
        var latitude: Double
        var longitude: Double
    }

    struct Item: Codable, Hashable {
        var name: String
        var quantity: UInt8
    }

    var orderNumber: String
    var restaurantName: String
    var items: [Item]
    var total: Decimal
    var trackingURL: URL
}

struct FoodDeliveryLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: FoodDeliveryAttributes.self) { context in
            VStack(alignment: .leading) {
                Text("Order \(context.attributes.orderNumber): \(context.state.stage.title)")
                Text(context.state.estimatedArrival, style: .timer)
            }
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) { Text("{") }
            } compactLeading: {
                Text("🍕")
            } compactTrailing: {
                Text(context.state.estimatedArrival, style: .timer)
            } minimal: {
                Text("🍕")
            }
        }
    }
}

#Preview("Delivery", as: .content, using: FoodDeliveryAttributes(
    orderNumber: "A-1042", restaurantName: "Luigi's", items: [], total: 23.5,
    trackingURL: URL(string: "https://example.com/track/A-1042")!)
) {
    FoodDeliveryLiveActivity()
} contentStates: {
    FoodDeliveryAttributes.ContentState(stage: .preparing, estimatedArrival: .now.addingTimeInterval(1_800))
}
