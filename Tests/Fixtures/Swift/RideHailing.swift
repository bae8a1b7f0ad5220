import ActivityKit
import Foundation

struct RideHailingAttributes: ActivityAttributes {
    typealias Degrees = Double

    struct ContentState: Codable, Hashable {
        enum Phase: String, Codable, Hashable {
            case searching, driverAssigned = "driver_assigned", arriving, onTrip = "on_trip", completed
        }

        var phase: Phase
        var driver: Driver?
        /// Minutes until pickup, or until drop-off once the trip has started.
        var etaMinutes: UInt16
        var route: [Waypoint] = []
        var fare: Money?
        private var debugInfo: String? = nil

        enum CodingKeys: String, CodingKey {
            case phase
            case driver
            case etaMinutes = "eta_minutes"
            case route
            case fare
        }
    }

    struct Driver: Codable, Hashable {
        var name: String
        var photo: URL?
        var rating: Float
        var car: Car
    }

    struct Car: Codable, Hashable {
        var make: String
        var model: String
        var plate: String
        var color: String
    }

    struct Waypoint: Codable, Hashable {
        var latitude: Degrees
        var longitude: Degrees
    }

    struct Money: Codable, Hashable {
        var amount: Decimal
        var currency: String = "EUR"
    }

    enum ServiceLevel: String, Codable {
        case standard, comfort
        case xl = "XL"
    }

    var rideID: UUID
    var pickup: String
    var dropoff: String
    var serviceLevel: ServiceLevel = .standard
    var isShared: Bool { serviceLevel == .standard }
    static let activityKind = "ride"
}
