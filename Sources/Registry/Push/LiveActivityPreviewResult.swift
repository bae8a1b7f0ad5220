/// What a previewed notification would become, and what is wrong with it.
public struct LiveActivityPreviewResult: Sendable, Equatable {
    /// API-rule problems first, then schema-value problems, then the payload size.
    public let problems: [PushProblem]
    /// The APNs request; nil when the push API would reject the notification.
    public let request: APNsRequest?

    /// Valid means no error-severity problem: warnings never block a push.
    public var valid: Bool { problems.hasNoErrors }

    /// The API rendering: `{"valid", "problems", "request": {…} or null}`.
    public var json: JSONValue {
        ["valid": .bool(valid), "problems": .array(problems.map(\.json)), "request": request?.json ?? .null]
    }
}

/// The HTTP/2 request APNs would receive for a Live Activity push.
public struct APNsRequest: Sendable, Equatable {
    /// `<bundle id>.push-type.liveactivity`: Live Activity pushes have their own topic.
    public let topic: String
    /// 10 (deliver now, even to a locked screen) or 5 (when convenient, saving battery).
    public let priority: Int
    /// `{"aps": {…}}`, exactly as it would be sent.
    public let payload: JSONObject
    /// UTF-8 bytes of the compact payload text: the number APNs holds against its 4 KB limit.
    public let payloadBytes: Int

    init(bundleID: String, priority: Int, payload: JSONObject) {
        self.topic = bundleID + ".push-type.liveactivity"
        self.priority = priority
        self.payload = payload
        self.payloadBytes = JSONWriter.bytes(.object(payload)).count
    }

    /// The APNs headers that differ from an ordinary push, in a stable order.
    public var headers: [(name: String, value: String)] {
        [("apns-push-type", "liveactivity"), ("apns-topic", topic), ("apns-priority", String(priority))]
    }

    /// The API rendering: `{"headers": {name: value}, "payload": {…}, "payload_bytes": N}`.
    public var json: JSONValue {
        [
            "headers": .object(JSONObject(headers.map { (key: $0.name, value: JSONValue.string($0.value)) })),
            "payload": .object(payload),
            "payload_bytes": .number(String(payloadBytes)),
        ]
    }
}
