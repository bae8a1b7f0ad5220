import Foundation

// Types shared by the Live Activities of one app, declared in their own file as an app's
// widget extension and main target would share them.

/// Money as the backend sends it.
struct Money: Codable, Hashable {
    var amount: Decimal
    var currency: String
}

typealias CourierID = UUID

struct Courier: Codable, Hashable {
    var id: CourierID
    var name: String
    var photo: URL?
    var rating: Float
}

extension DeliveryAttributes {
    /// Where the order is; declared in an extension, in another file than the type.
    enum Stage: String, Codable, Hashable {
        case placed, preparing
        case onTheWay = "on_the_way"
        case delivered
    }
}
