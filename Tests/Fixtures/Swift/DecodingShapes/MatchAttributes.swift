import Foundation
#if canImport(ActivityKit)
import ActivityKit
#endif

/// A football match: enums of every kind Codable synthesizes.
struct MatchAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var score: Score
        var period: Period
        var lastEvent: Event?
        var events: [Event]
        var possession: Side
        var momentum: Momentum
        var grade: Grade
        #if canImport(Foundation)
        var clock: ClosedRange<Date>?
        #else
        var clockText: String
        #endif
    }

    struct Score: Codable, Hashable {
        var home: Int
        var away: Int
    }

    enum Period: Int, Codable, Hashable {
        case first = 1, second, extraTime, penalties
    }

    /// A `Character` raw value is not Codable, so Codable writes the case name as a key.
    enum Side: Character, Codable, Hashable {
        case home = "H"
        case away = "A"
    }

    enum Momentum: Double, Codable, Hashable {
        case low = 0.25, even = 0.5, high = 0.75
    }

    enum Grade: Float, Codable, Hashable {
        case one = 1, two, half = 0.5
    }

    enum Event: Codable, Hashable {
        case kickoff
        case goal(player: String, minute: Int)
        case card(String, red: Bool)
        case substitution(off: String, on: String, at: Date?)
        case note(_ text: String)
    }

    enum Competition: Codable, Hashable {
        case league, cup, friendly
    }

    var homeTeam: String
    var awayTeam: String
    var venue: String?
    var competition: Competition
}
