import ActivityKit
import Foundation

@available(iOS 16.1, *)
struct WorkoutAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var elapsedSeconds: Int
        var heartRate: Int?
        var calories: Double
        var distance: Measured<Double>?
        var pace: Pace?
        var currentInterval: Interval?
        var splits: [Split]
        var zone: HeartRateZone
        var isPaused: Bool
    }

    struct Pace: Codable, Hashable { var minutes: Int; var seconds: Int }

    struct Interval: Codable, Hashable {
        var name: String
        var index: Int
        var total: Int
        var endsAt: Date
    }

    struct Split: Codable, Hashable {
        let kilometer: Int
        let duration: TimeInterval
    }

    /// A value with the unit it was measured in.
    struct Measured<Value: Codable & Hashable>: Codable, Hashable {
        var value: Value
        var unit: String
    }

    enum HeartRateZone: Int, Codable {
        case rest, warmUp, fatBurn, cardio, peak
    }

    enum WorkoutType: String, Codable {
        case run = "running", ride = "cycling", swim = "swimming", strength
    }

    struct Goal: Codable, Hashable {
        var kind: String
        var target: Measured<Double>
    }

    var workoutType: WorkoutType
    @available(*, deprecated, message: "Use goals")
    var goal: Goal?
    var startedAt: Date
}
