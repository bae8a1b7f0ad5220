import ActivityKit
import Foundation

typealias Score = Int

/**
 * A live match between two teams.
 *
 * Updated after every scoring play.
 */
struct SportsScoreAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var homeScore: Score
        var awayScore: Score
        var period: Period
        /// Seconds left in the period; nil during breaks.
        var clockSeconds: Int32?
        var lastPlay: Play?
        var isFinal: Bool = false
        var stats: [String: Double]
    }

    enum Period: Int, Codable {
        case first = 1, second, third, fourth
        case overtime = 10
    }

    struct Play: Codable, Hashable {
        var description: String
        var team: Side
        var points: Int8
    }

    enum Side: String, Codable { case home, away }

    struct Team: Codable, Hashable {
        var name: String
        var abbreviation: String
        var logoURL: URL
        var colors: [String]
    }

    let league: String
    let homeTeam: Team
    let awayTeam: Team
    let startTime: Date
    let venue: String?
    /// Fixed by the app; synthesized Codable never decodes a `let` with a value.
    let sport: String = "basketball"
}
