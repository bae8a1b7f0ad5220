import ActivityKit
import Foundation

/// A flight's Live Activity, from check-in to arrival.
struct FlightAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var gate: String
        var status: String
        var estimatedTime: String
        /// Where boarding stands.
        var boarding: BoardingStatus = .notStarted
        var delayMinutes: Int?
        var departure: Date
        var seatMap: URL?
    }

    enum BoardingStatus: String, Codable, Hashable {
        case notStarted = "not_started"
        case boarding
        case closed
    }

    struct Airline: Codable, Hashable {
        var name: String
        var logo: URL?
    }

    var flightNumber: String
    /// IATA code of the departure airport.
    var origin: String
    var destination: String
    var airline: Airline

    enum CodingKeys: String, CodingKey {
        case flightNumber = "flight_number"
        case origin, destination, airline
    }
}

extension FlightAttributes {
    static var preview: FlightAttributes {
        FlightAttributes(flightNumber: "LH 400", origin: "FRA", destination: "JFK", airline: .init(name: "Lufthansa"))
    }
}

extension FlightAttributes.ContentState {
    static let onTime = FlightAttributes.ContentState(
        gate: "B22", status: "On time", estimatedTime: "14:05", departure: .now)
}
