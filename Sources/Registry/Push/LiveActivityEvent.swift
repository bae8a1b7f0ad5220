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
    /// The word is matched by its bytes (`LiveActivityEvent(exactly:)`), not by Swift's
    /// canonically equivalent `String ==`.
    public init?(event: JSONValue?) {
        switch event {
        case nil, .null?: self = .start
        case .string(let word)?:
            switch LiveActivityEvent(exactly: word) {
            case .start?: self = .start
            case .update?, .end?: self = .update
            case nil: return nil
            }
        default: return nil
        }
    }
}
