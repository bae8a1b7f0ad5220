/// The `aps.event` of a Live Activity push: what it does to the activity on the device.
public enum LiveActivityEvent: String, Sendable, CaseIterable {
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

    /// The call a notification's `live_activity.event` implies: absent, `null` or `"start"` is
    /// a start, `"update"` or `"end"` an update; any other value names neither, so nil.
    public init?(event: JSONValue?) {
        switch event {
        case nil, .null?, .string("start")?: self = .start
        case .string("update")?, .string("end")?: self = .update
        default: return nil
        }
    }
}
