import Registry
import Testing

@Suite struct PushPreviewTests {
    /// 2026-09-01T10:00:00Z.
    let now = 1_788_256_800.75
    let schema: SchemaDocument

    init() throws {
        schema = try pushSchema(
            #"""
            {
              "type": "object",
              "properties": {
                "gate": { "type": "string" },
                "boardingAt": { "type": "number", "format": "date-time", "x-swift-type": "Date" }
              },
              "attributes": {
                "properties": { "flightNumber": { "type": "string" } },
                "required": ["flightNumber"]
              }
            }
            """#)
    }

    func start(_ extra: String = "", liveActivity: String = "") throws -> JSONObject {
        try pushObject(
            #"{"content":"Boarding soon","title":"LH400","live_activity_id":"la-1",\#(extra)"live_activity":{"content-state":{"gate":"B12"},"attributes-type":"FlightAttributes","attributes":{"flightNumber":"LH400"}\#(liveActivity)}}"#
        )
    }

    func update(_ extra: String = "", liveActivity: String = "", event: String = #""update""#) throws -> JSONObject {
        try pushObject(
            #"{"live_activity_id":"la-1",\#(extra)"live_activity":{"event":\#(event),"content-state":{"gate":"C3"}\#(liveActivity)}}"#
        )
    }

    func preview(_ notification: JSONObject, _ call: LiveActivityCall?) -> LiveActivityPreviewResult {
        LiveActivityPreview.preview(notification, call: call, bundleID: "com.example.flights", schema: schema, now: now)
    }

    func previewWithoutSchema(_ notification: JSONObject, _ call: LiveActivityCall) -> LiveActivityPreviewResult {
        LiveActivityPreview.preview(notification, call: call, bundleID: "com.example.flights", schema: nil, now: now)
    }

    func errors(_ result: LiveActivityPreviewResult) -> [String] {
        result.problems.filter { $0.severity == .error }.map(\.path)
    }

    @Test func startBecomesALiveActivityRequestWithThePayloadInOrder() throws {
        let result = preview(try start(), .start)
        #expect(result.valid)
        #expect(result.problems.isEmpty)
        let request = try #require(result.request)
        #expect(request.headers.map(\.name) == ["apns-push-type", "apns-topic", "apns-priority"])
        #expect(request.headers.map(\.value) == ["liveactivity", "com.example.flights.push-type.liveactivity", "5"])
        let expected =
            #"{"aps":{"timestamp":1788256800,"event":"start","content-state":{"gate":"B12"},"attributes-type":"FlightAttributes","attributes":{"flightNumber":"LH400"},"alert":{"title":"LH400","body":"Boarding soon"}}}"#
        #expect(JSONWriter.string(.object(request.payload)) == expected)
        #expect(request.payloadBytes == expected.utf8.count)
    }

    @Test func updateCarriesTheDatesAndRelevanceScoreAfterTheAlert() throws {
        let notification = try update(
            #""subtitle":"Gate change","#,
            liveActivity: #","dismissal-date":1788260400,"relevance-score":60,"stale-date":1788258600"#)
        let request = try #require(preview(notification, .update).request)
        #expect(
            JSONWriter.string(.object(request.payload))
                == #"{"aps":{"timestamp":1788256800,"event":"update","content-state":{"gate":"C3"},"alert":{"subtitle":"Gate change"},"stale-date":1788258600,"dismissal-date":1788260400,"relevance-score":60}}"#
        )
    }

    @Test func endIsAnUpdateWithEventEnd() throws {
        let request = try #require(preview(try update(event: #""end""#), .update).request)
        #expect(request.payload["aps"]?.objectValue?["event"] == "end")
    }

    @Test func onlyTheInteger10GivesHighPriority() throws {
        let cases: [(String, String)] = [
            (#""apns_priority":10,"#, "10"), (#""apns_priority":5,"#, "5"), (#""apns_priority":0,"#, "5"),
            (#""apns_priority":11,"#, "5"), (#""apns_priority":"10","#, "5"), ("", "5"),
        ]
        for (field, header) in cases {
            let result = preview(try update(field), .update)
            #expect(result.problems.isEmpty, "\(field)")
            #expect(result.request?.headers.last?.value == header, "\(field)")
        }
    }

    @Test func aStartNeedsANonEmptyContentOrTitle() throws {
        let neither = try pushObject(
            #"{"content":"","live_activity_id":"la-1","live_activity":{"content-state":{},"attributes-type":"T","attributes":{"flightNumber":"x"}}}"#
        )
        let result = preview(neither, .start)
        #expect(errors(result) == ["content"])
        #expect(result.request == nil)
        var titleOnly = neither
        titleOnly["title"] = "Flight"
        #expect(preview(titleOnly, .start).valid)
    }

    @Test func liveActivityIdIsRequiredAndNonEmpty() throws {
        var notification = try update()
        notification["live_activity_id"] = ""
        #expect(preview(notification, .update).problems.map(\.message) == ["must not be empty"])
        notification["live_activity_id"] = nil
        #expect(errors(preview(notification, .update)) == ["live_activity_id"])
        notification["live_activity_id"] = 7
        #expect(preview(notification, .update).problems.map(\.message) == ["must be a string, not number"])
    }

    @Test func liveActivityAndItsContentStateAreRequired() throws {
        var notification = try update()
        notification["live_activity"] = nil
        #expect(errors(preview(notification, .update)) == ["live_activity"])
        notification["live_activity"] = ["event": "update", "content-state": "gate B1"]
        let result = preview(notification, .update)
        #expect(result.problems.map(\.message) == ["must be an object, not string"])
        #expect(result.request == nil)
    }

    @Test func aStartNeedsAttributesTypeAndAttributes() throws {
        var notification = try start()
        notification["live_activity"] = ["content-state": [:]]
        #expect(errors(previewWithoutSchema(notification, .start)) == ["live_activity.attributes-type", "live_activity.attributes"])
    }

    @Test func anUpdateEventMustBeUpdateOrEnd() throws {
        for event in [#""start""#, #""pause""#, "3"] {
            let result = preview(try update(event: event), .update)
            #expect(errors(result) == ["live_activity.event"], "\(event)")
            #expect(result.request == nil)
        }
        var missing = try update()
        missing["live_activity"]?.removeEvent()
        #expect(errors(preview(missing, .update)) == ["live_activity.event"])
    }

    @Test func theEventDecidesTheCall() {
        let cases: [(JSONValue?, LiveActivityCall?)] = [
            (nil, .start), (.null, .start), ("start", .start), ("update", .update), ("end", .update),
            ("pause", nil), ("", nil), ("Start", nil), (3, nil), (true, nil), (["start"], nil),
        ]
        for (event, call) in cases {
            #expect(LiveActivityCall(event: event) == call, "\(String(describing: event))")
        }
    }

    @Test func anEventNamingNeitherCallIsReportedAloneWithoutTheRulesOfEitherCall() throws {
        // No content, title, attributes-type or attributes (a start would need them), and
        // attributes present (an update must not have them): only the event is wrong.
        for event in [#""pause""#, #""""#, "3", "[]"] {
            let notification = try pushObject(
                #"{"live_activity_id":"la-1","live_activity":{"event":\#(event),"content-state":{"gate":"B12"},"attributes":{}}}"#)
            let result = preview(notification, LiveActivityCall(event: notification["live_activity"]?["event"]))
            #expect(result.problems.map(\.path) == ["live_activity.event"], "\(event): \(result.problems)")
            #expect(result.request == nil)
        }
    }

    @Test func aStartEventMayOnlySayStart() throws {
        #expect(preview(try start(liveActivity: #","event":"start""#), .start).valid)
        #expect(errors(preview(try start(liveActivity: #","event":"update""#), .start)) == ["live_activity.event"])
    }

    @Test func soundGoesInsideTheAlertNeverTopLevel() throws {
        let request = try #require(preview(try update(#""title":"Gate change","ios_sound":"chime.caf","#), .update).request)
        let aps = try #require(request.payload["aps"]?.objectValue)
        #expect(aps["sound"] == nil)
        #expect(aps["alert"] == ["title": "Gate change", "sound": "chime.caf"])
    }

    @Test func soundWithoutAlertTextIsLeftOutWithAWarning() throws {
        let result = preview(try update(#""ios_sound":"chime.caf","#), .update)
        #expect(result.valid)
        #expect(result.problems.map(\.path) == ["ios_sound"])
        #expect(result.problems.map(\.severity) == [.warning])
        #expect(result.request?.payload["aps"]?.objectValue?["alert"] == nil)
    }

    @Test func anUpdateWithoutTextIsSilent() throws {
        let aps = try #require(preview(try update(#""title":"","#), .update).request?.payload["aps"]?.objectValue)
        #expect(aps.keys == ["timestamp", "event", "content-state"])
    }

    @Test func relevanceScoreMustBeAnIntegerOfAtLeastOne() throws {
        #expect(preview(try update(liveActivity: #","relevance-score":1"#), .update).valid)
        #expect(preview(try update(liveActivity: #","relevance-score":2.0"#), .update).valid)
        for bad in ["0", "1.5", #""5""#, "-3"] {
            let result = preview(try update(liveActivity: #","relevance-score":\#(bad)"#), .update)
            #expect(errors(result) == ["live_activity.relevance-score"], "\(bad)")
        }
    }

    @Test func staleAndDismissalDatesMustBeIntegers() throws {
        let result = preview(try update(liveActivity: #","stale-date":"2026-09-01","dismissal-date":1788260400.5"#), .update)
        #expect(errors(result) == ["live_activity.stale-date", "live_activity.dismissal-date"])
        #expect(preview(try update(liveActivity: #","stale-date":null"#), .update).valid)
    }

    @Test func attributesOnAnUpdateAreAnError() throws {
        let result = preview(try update(liveActivity: #","attributes":{"flightNumber":"LH401"}"#), .update)
        #expect(result.problems == [.init(path: "attributes", message: "attributes are only sent at start; an update or end cannot change them", severity: .error)])
        #expect(result.request == nil)
        #expect(previewWithoutSchema(try update(liveActivity: #","attributes":"x""#), .update).problems.map(\.path) == ["attributes"])
    }

    @Test func schemaValueProblemsKeepTheRequestBecauseThePushWouldStillGoOut() throws {
        let result = preview(try update(liveActivity: #","extra":1"#).replacingContentState(#"{"gate":5,"note":"x"}"#), .update)
        #expect(!result.valid)
        #expect(result.problems.map(\.path) == ["content-state.gate", "content-state.note"])
        #expect(result.problems.map(\.severity) == [.error, .warning])
        #expect(result.request != nil)
    }

    @Test func aMissingRequiredAttributeAtStartIsReported() throws {
        let result = preview(try start().replacingAttributes(#"{"flightNumber":""}"#), .start)
        #expect(errors(result) == ["attributes.flightNumber"])
    }

    @Test func withoutASchemaValuesAreNotChecked() throws {
        let notification = try update().replacingContentState(#"{"gate":5,"boardingAt":"2026-09-01T10:00:00Z"}"#)
        let result = previewWithoutSchema(notification, .update)
        #expect(result.valid)
        #expect(result.request?.payload["aps"]?.objectValue?["content-state"] == ["gate": 5, "boardingAt": "2026-09-01T10:00:00Z"])
    }

    @Test func dateFieldsAreConvertedToSecondsSince2001InThePayload() throws {
        let notification = try update().replacingContentState(#"{"gate":"B1","boardingAt":"2026-09-01T12:30:00+02:00"}"#)
        let state = preview(notification, .update).request?.payload["aps"]?.objectValue?["content-state"]
        #expect(state == ["gate": "B1", "boardingAt": .number("809951400")])
    }

    @Test func aPayloadOfExactly4096BytesIsValidAnd4097IsNot() throws {
        let base = try #require(preview(try update().replacingContentState(#"{"gate":""}"#), .update).request).payloadBytes
        func padded(toBytes total: Int) throws -> LiveActivityPreviewResult {
            let fill = total - base
            let gate = String(repeating: "€", count: fill / 3) + String(repeating: "a", count: fill % 3)
            var notification = try update()
            notification["live_activity"]?.setContentState(["gate": .string(gate)])
            return preview(notification, .update)
        }
        let fits = try padded(toBytes: 4_096)
        #expect(fits.request?.payloadBytes == 4_096)
        #expect(fits.valid)
        let gate = try #require(fits.request?.payload["aps"]?.objectValue?["content-state"]?.objectValue?["gate"]?.stringValue)
        #expect(gate.unicodeScalars.count < 1_400)  // bytes, not characters, are counted
        let over = try padded(toBytes: 4_097)
        #expect(over.request?.payloadBytes == 4_097)
        #expect(!over.valid)
        #expect(over.problems.map(\.path) == ["payload"])
        #expect(over.problems.first?.message.hasPrefix("is 4097 bytes, over the APNs limit of 4096") == true)
    }

    @Test func anOversizedPayloadNamesTheThreeLargestFields() throws {
        var notification = try start()
            .replacingContentState(
                #"{"gate":"\#(String(repeating: "g", count: 2000))","boardingAt":1,"note":"\#(String(repeating: "n", count: 1000))"}"#
            )
            .replacingAttributes(#"{"flightNumber":"\#(String(repeating: "f", count: 800))"}"#)
        notification["content"] = .string(String(repeating: "b", count: 600))
        let result = preview(notification, .start)
        let problem = try #require(result.problems.first { $0.path == "payload" })
        #expect(
            problem.message.hasSuffix(
                "the largest fields: content-state.gate (2009 bytes), content-state.note (1009 bytes), attributes.flightNumber (817 bytes)"
            ))
    }

    @Test func nullOptionalFieldsReadAsAbsent() throws {
        let result = preview(try update(#""send_date":null,"timezone":null,"title":null,"apns_priority":null,"#), .update)
        #expect(result.valid)
        #expect(result.problems.isEmpty)
    }

    @Test func jsonRenderingHasHeadersPayloadAndSize() throws {
        let result = preview(try update(#""apns_priority":10,"#), .update)
        let json = JSONWriter.string(result.json)
        #expect(
            json
                == #"{"valid":true,"problems":[],"request":{"headers":{"apns-push-type":"liveactivity","apns-topic":"com.example.flights.push-type.liveactivity","apns-priority":"10"},"payload":{"aps":{"timestamp":1788256800,"event":"update","content-state":{"gate":"C3"}}},"payload_bytes":79}}"#
        )
        let rejected = preview(try update(event: #""pause""#), .update)
        #expect(JSONWriter.string(rejected.json).hasSuffix(#""request":null}"#))
    }
}

extension JSONObject {
    fileprivate func replacingContentState(_ text: String) throws -> JSONObject {
        var copy = self
        copy["live_activity"]?.setContentState(try pushObject(text))
        return copy
    }

    fileprivate func replacingAttributes(_ text: String) throws -> JSONObject {
        var copy = self
        guard case .object(var activity)? = copy["live_activity"] else { return copy }
        activity["attributes"] = .object(try pushObject(text))
        copy["live_activity"] = .object(activity)
        return copy
    }
}

extension JSONValue {
    fileprivate mutating func setContentState(_ state: JSONObject) {
        guard case .object(var activity) = self else { return }
        activity["content-state"] = .object(state)
        self = .object(activity)
    }

    fileprivate mutating func removeEvent() {
        guard case .object(var activity) = self else { return }
        activity["event"] = nil
        self = .object(activity)
    }
}
