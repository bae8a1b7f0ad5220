/// The `aps.event` of a Live Activity push: what it does to the activity on the device.
public enum LiveActivityEvent: String, Sendable {
    case start
    case update
    case end
}

/// Which push API call a notification belongs to: the two calls have different required fields
/// (`attributes` only at start, `live_activity.event` only on update).
public enum LiveActivityCall: String, Sendable {
    /// `startLiveActivity`.
    case start
    /// `updateLiveActivity`, which also ends activities.
    case update
}
