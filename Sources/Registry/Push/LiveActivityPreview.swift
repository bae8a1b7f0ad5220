/// Shows what one `startLiveActivity` or `updateLiveActivity` notification would become at
/// APNs — headers, the exact `aps` payload and its size — and every rule it breaks, so a
/// journey builder can catch a push that the API would reject or the device would silently
/// drop before anything is sent.
public enum LiveActivityPreview {
    /// APNs rejects a payload over 4 KB, counted in UTF-8 bytes as sent.
    public static let maxPayloadBytes = 4_096

    /// Previews `notification` (one element of the call's `notifications`) for the app
    /// `bundleID`, with `now` as the clock (Unix seconds), checking values against `schema`
    /// when one applies to its attributes type.
    ///
    /// The request is nil when the notification breaks a rule of the push API itself, since
    /// the API would reject it and nothing would be sent; it is present despite schema-value
    /// errors or an oversized payload, because that push would go out and fail on the way.
    ///
    /// Decisions where the API says nothing: `subtitle` and `ios_sound` are accepted on start
    /// too; `send_date` and `timezone` are checked on both calls; `stale-date`,
    /// `dismissal-date` and `relevance-score` are passed on at start as well; on start
    /// `live_activity.event` may be omitted or `"start"`; text fields set to `""` count as unset.
    /// A nil `call` means the event names neither call: that is reported alone, without the
    /// rules of either call (a start's content, attributes-type and attributes; an update's
    /// "no attributes").
    public static func preview(
        _ notification: JSONObject, call: LiveActivityCall?, bundleID: String, schema: SchemaDocument?, now: Double
    ) -> LiveActivityPreviewResult {
        var reader = FieldReader()
        _ = reader.requiredString("live_activity_id", in: notification, path: "live_activity_id")
        let body = reader.string("content", in: notification, path: "content")
        let title = reader.string("title", in: notification, path: "title")
        let subtitle = reader.string("subtitle", in: notification, path: "subtitle")
        let sound = reader.string("ios_sound", in: notification, path: "ios_sound")
        if call == .start, body?.isEmpty ?? true, title?.isEmpty ?? true {
            reader.problems.append(.error("content", "a start needs a non-empty content or title"))
        }
        let alert = APSPayload.alert(title: title, subtitle: subtitle, body: body, sound: sound)
        if alert == nil, let sound, !sound.isEmpty {
            reader.problems.append(
                .warning("ios_sound", "plays only with a content, title or subtitle; this push is silent, so it is left out"))
        }
        reader.problems += SendDateCheck.problems(
            sendDate: notification.present("send_date"), timezone: notification.present("timezone"), now: now)

        guard let activity = reader.requiredObject("live_activity", in: notification, path: "live_activity") else {
            return LiveActivityPreviewResult(problems: reader.problems, request: nil)
        }
        let event = reader.event(of: activity, in: call)
        let contentState = reader.requiredObject("content-state", in: activity, path: "live_activity.content-state")
        var attributesType: String?
        var attributes: JSONObject?
        if call == .start {
            attributesType = reader.requiredString("attributes-type", in: activity, path: "live_activity.attributes-type")
            attributes = reader.requiredObject("attributes", in: activity, path: "live_activity.attributes")
        } else if call == .update, activity.present("attributes") != nil {
            reader.problems.append(PushValueChecker.attributesOnlyAtStart)
        }
        let staleDate = reader.integer("stale-date", in: activity, path: "live_activity.stale-date")
        let dismissalDate = reader.integer("dismissal-date", in: activity, path: "live_activity.dismissal-date")
        let relevanceScore = reader.integer(
            "relevance-score", in: activity, path: "live_activity.relevance-score", minimum: 1)

        guard let event, let contentState else {
            return LiveActivityPreviewResult(problems: reader.problems, request: nil)
        }
        let apiIsSatisfied = reader.problems.hasNoErrors
        var problems = reader.problems
        var payload = APSPayload(
            timestamp: Int(now.rounded(.down)), event: event, contentState: contentState,
            attributesType: attributesType, attributes: attributes, alert: alert,
            staleDate: staleDate, dismissalDate: dismissalDate, relevanceScore: relevanceScore)
        if let schema {
            let check = PushValueChecker.check(schema, event: event, contentState: contentState, attributes: attributes)
            problems += check.problems
            payload.contentState = check.contentState
            payload.attributes = check.attributes
        }
        guard apiIsSatisfied else { return LiveActivityPreviewResult(problems: problems, request: nil) }
        let request = APNsRequest(bundleID: bundleID, priority: priority(notification["apns_priority"]), payload: payload.json)
        if request.payloadBytes > maxPayloadBytes {
            let largest = payload.largestFields(3).map { "\($0.path) (\($0.bytes) bytes)" }.joined(separator: ", ")
            problems.append(
                .error(
                    "payload",
                    "is \(request.payloadBytes) bytes, over the APNs limit of \(maxPayloadBytes); the largest fields: \(largest)"))
        }
        return LiveActivityPreviewResult(problems: problems, request: request)
    }

    /// Only the integer 10 asks for immediate delivery; the API turns every other value —
    /// 0, 11, the string `"10"`, none at all — into 5 without an error, and so does the preview.
    private static func priority(_ value: JSONValue?) -> Int {
        value?.doubleValue == 10 ? 10 : 5
    }
}

extension FieldReader {
    /// The event the call sends: a start is always `start` (`live_activity.event` may be
    /// omitted or say `"start"`); an update names `"update"` or `"end"`.
    fileprivate mutating func event(of activity: JSONObject, in call: LiveActivityCall?) -> LiveActivityEvent? {
        let path = "live_activity.event"
        switch call {
        case nil:
            if let text = string("event", in: activity, path: path) {
                problems.append(.error(path, #"must be "start", "update" or "end", not \#(JSONWriter.string(.string(text)))"#))
            }
            return nil
        case .start:
            guard let text = string("event", in: activity, path: path) else { return .start }
            guard text == LiveActivityEvent.start.rawValue else {
                let quoted = ClientText.quoted(text)
                problems.append(.error(path, #"must be "start" or omitted in startLiveActivity, not \#(quoted)"#))
                return nil
            }
            return .start
        case .update:
            guard let text = requiredString("event", in: activity, path: path) else { return nil }
            guard let event = LiveActivityEvent(exactly: text), event != .start else {
                if !text.isEmpty {
                    problems.append(.error(path, #"must be "update" or "end", not \#(ClientText.quoted(text))"#))
                }
                return nil
            }
            return event
        }
    }
}
