/// One webhook delivery's content: its `webhook-id` (the event's, so every attempt and every
/// redelivery of an event carry the same id and receivers dedupe by it) and its JSON body, the
/// shape of a change-feed event with the application and the feed cursor after it.
public struct WebhookMessage: Sendable, Equatable {
    public let id: String
    public let type: String
    public let body: [UInt8]

    /// - Parameter cursorToken: the feed cursor just after the event, as `/api/changes` spells it.
    public init(event: ChangeEvent, applicationCode: String, cursorToken: String) {
        id = Self.eventIDPrefix + cursorToken
        type = event.kind.rawValue
        let object: JSONObject = [
            "type": .string(event.kind.rawValue),
            "application": .string(applicationCode),
            "attributes_type": event.attributesType.map(JSONValue.string) ?? .null,
            "version": event.version.map { .number(String($0)) } ?? .null,
            "time": .string(event.at),
            "cursor": .string(cursorToken),
        ]
        body = Array(JSONWriter.string(.object(object)).utf8)
    }

    /// A test event asked for on a subscription: the id names the request, so each is new.
    public init(testNumber: Int64, applicationCode: String, time: String) {
        id = Self.testID(testNumber)
        type = "test"
        let object: JSONObject = ["type": .string("test"), "application": .string(applicationCode), "time": .string(time)]
        body = Array(JSONWriter.string(.object(object)).utf8)
    }

    private static let eventIDPrefix = "msg_"
    private static let testIDPrefix = "msg_test_"

    /// The `webhook-id` of the test event queued as `testNumber`.
    public static func testID(_ testNumber: Int64) -> String { testIDPrefix + String(testNumber) }

    /// The feed cursor of the event a `webhook-id` was made for, which redelivery takes; nil
    /// for a test event's id, which names no feed event.
    public static func cursorToken(ofID id: String) -> String? {
        let bytes = Array(id.utf8)
        guard bytes.starts(with: eventIDPrefix.utf8), !bytes.starts(with: testIDPrefix.utf8),
            bytes.count > eventIDPrefix.utf8.count
        else { return nil }
        return String(decoding: bytes[eventIDPrefix.utf8.count...], as: UTF8.self)
    }
}
