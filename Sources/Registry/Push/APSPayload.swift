/// The `aps` dictionary of a Live Activity push. One type builds it for the preview and for the
/// worst-case size estimate, so both count exactly the bytes that would be sent.
struct APSPayload {
    /// Unix seconds; ActivityKit drops an update older than the one it shows.
    var timestamp: Int
    var event: LiveActivityEvent
    var contentState: JSONObject
    /// Start only.
    var attributesType: String?
    /// Start only.
    var attributes: JSONObject?
    /// `title`, `subtitle`, `body`, `sound`; nil for a silent push.
    var alert: JSONObject?
    var staleDate: JSONValue?
    var dismissalDate: JSONValue?
    var relevanceScore: JSONValue?

    /// `{"aps": {…}}`, keys in Apple's documented order, absent members omitted.
    var json: JSONObject {
        var aps: JSONObject = ["timestamp": .number(String(timestamp)), "event": .string(event.rawValue)]
        aps["content-state"] = .object(contentState)
        aps["attributes-type"] = attributesType.map(JSONValue.string)
        aps["attributes"] = attributes.map(JSONValue.object)
        aps["alert"] = alert.map(JSONValue.object)
        aps["stale-date"] = staleDate
        aps["dismissal-date"] = dismissalDate
        aps["relevance-score"] = relevanceScore
        return ["aps": .object(aps)]
    }

    /// The alert for the push API's text fields: an object only when one of title, subtitle or
    /// body is non-empty, because ActivityKit shows (and sounds) an alert only then; the sound
    /// goes inside it, as ActivityKit ignores a top-level `aps.sound`.
    static func alert(title: String?, subtitle: String?, body: String?, sound: String?) -> JSONObject? {
        var alert = JSONObject()
        for (key, text) in [("title", title), ("subtitle", subtitle), ("body", body)] {
            if let text, !text.isEmpty { alert[key] = .string(text) }
        }
        guard !alert.isEmpty else { return nil }
        if let sound, !sound.isEmpty { alert["sound"] = .string(sound) }
        return alert
    }

    /// The `limit` members that take the most bytes, each as `"key":value` in the compact
    /// text, named by the path a sender edits: `content-state.…` and `attributes.…` as in the
    /// form, the API's field names for the alert and the type.
    func largestFields(_ limit: Int) -> [(path: String, bytes: Int)] {
        func bytes(_ key: String, _ value: JSONValue) -> Int {
            JSONWriter.bytes(.string(key)).count + 1 + JSONWriter.bytes(value).count
        }
        func fields(of object: JSONObject?, under prefix: String) -> [(path: String, bytes: Int)] {
            (object?.members ?? []).map { (JSONPathComponent.render([.key($0.key)], prefix: prefix), bytes($0.key, $0.value)) }
        }
        let requestNames = ["title": "title", "subtitle": "subtitle", "body": "content", "sound": "ios_sound"]
        var all = fields(of: contentState, under: "content-state") + fields(of: attributes, under: "attributes")
        all += (alert?.members ?? []).map { (requestNames[$0.key] ?? $0.key, bytes($0.key, $0.value)) }
        if let attributesType {
            all.append(("live_activity.attributes-type", bytes("attributes-type", .string(attributesType))))
        }
        // `sorted` is stable: equal sizes keep payload order.
        return Array(all.sorted { $0.bytes > $1.bytes }.prefix(limit))
    }
}
