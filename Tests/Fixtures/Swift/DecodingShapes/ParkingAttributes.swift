import Foundation
#if canImport(ActivityKit)
import ActivityKit
#endif

/// Keys renamed by CodingKeys, and a property CodingKeys leaves out.
struct ParkingAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var spot: String
        var paidUntil: Date
        var minutesLeft: Int
        var localOnly: Bool = false

        enum CodingKeys: String, CodingKey {
            case spot = "spot_code"
            case paidUntil = "paid_until"
            case minutesLeft
        }
    }

    var plate: String
    var zone: Int8
    var zoneName: String?

    enum CodingKeys: String, CodingKey {
        case plate = "licence_plate"
        case zone
        case zoneName = "zone_name"
    }
}
