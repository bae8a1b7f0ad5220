import Registry
import Testing

/// Signatures per the Standard Webhooks specification, checked against the specification's own
/// example (also what the reference `standardwebhooks` package computes for it).
@Suite struct WebhookSignatureTests {
    static let specSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let specID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    static let specTimestamp: Int64 = 1_614_265_330
    static let specBody = Array(#"{"test": 2432232314}"#.utf8)
    static let specSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="

    @Test func theSpecificationsExampleSignsAlike() throws {
        let key = try #require(WebhookSecret.key(of: Self.specSecret))
        #expect(WebhookSignature.sign(key: key, messageID: Self.specID, timestamp: Self.specTimestamp, body: Self.specBody) == Self.specSignature)
    }

    @Test func duringRotationBothSecretsSignSpaceSeparatedNewestFirst() throws {
        let fresh = WebhookSecret.generate()
        let header = WebhookSignature.header(
            secrets: [fresh, Self.specSecret], messageID: Self.specID, timestamp: Self.specTimestamp, body: Self.specBody)
        let parts = header.split(separator: " ").map(String.init)
        #expect(parts.count == 2)
        #expect(parts[1] == Self.specSignature)
        let freshKey = try #require(WebhookSecret.key(of: fresh))
        #expect(parts[0] == WebhookSignature.sign(key: freshKey, messageID: Self.specID, timestamp: Self.specTimestamp, body: Self.specBody))
        #expect(WebhookSignature.header(secrets: [Self.specSecret], messageID: Self.specID, timestamp: Self.specTimestamp, body: Self.specBody) == Self.specSignature)
    }

    @Test func generatedSecretsAreWhsecAnd24RandomBytes() throws {
        let secrets = (0..<50).map { _ in WebhookSecret.generate() }
        #expect(Set(secrets).count == secrets.count)
        for secret in secrets {
            #expect(secret.hasPrefix("whsec_"))
            #expect(try #require(WebhookSecret.key(of: secret)).count == WebhookSecret.keyBytes)
        }
        #expect(WebhookSecret.key(of: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)
        #expect(WebhookSecret.key(of: "whsec_not base64") == nil)
    }

    /// RFC 4231 test case 2 and RFC 4648's base64 vectors.
    @Test func hmacAndBase64MatchTheirRFCs() {
        let mac = HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        for invalid in ["Zg", "Zg=", "Z===", "Zm9v!", "Zh=="] { #expect(Base64.decode(invalid) == nil, "\(invalid)") }
    }

    @Test func theBodyIsAFeedEventWithTheApplicationAndCursor() throws {
        let event = ChangeEvent(cursor: ChangeCursor(xid: 7, id: 3), kind: .published, attributesType: "Ride", version: 2, at: "2026-12-02T00:00:00Z")
        let message = WebhookMessage(event: event, applicationCode: "app", cursorToken: "abc")
        #expect(message.id == "msg_abc")
        #expect(message.type == "published")
        let body = try JSONParser.parse(message.body)
        #expect(body == [
            "type": "published", "application": "app", "attributes_type": "Ride", "version": .number("2"),
            "time": "2026-12-02T00:00:00Z", "cursor": "abc",
        ])
    }

    /// The deliveries log names each attempt's cursor by reading it back from the id.
    @Test func theCursorIsReadBackFromAFeedEventsIdOnly() {
        let event = ChangeEvent(cursor: ChangeCursor(xid: 7, id: 3), kind: .published, attributesType: "Ride", version: 2, at: "2026-12-02T00:00:00Z")
        let message = WebhookMessage(event: event, applicationCode: "app", cursorToken: "7.3_x")
        #expect(WebhookMessage.cursorToken(ofID: message.id) == "7.3_x")
        let test = WebhookMessage(testNumber: 12, applicationCode: "app", time: "2026-12-02T00:00:00Z")
        #expect(test.id == WebhookMessage.testID(12))
        for id in [test.id, "msg_", "", "evt_7.3", "MSG_7.3"] {
            #expect(WebhookMessage.cursorToken(ofID: id) == nil, "\(id)")
        }
    }
}
