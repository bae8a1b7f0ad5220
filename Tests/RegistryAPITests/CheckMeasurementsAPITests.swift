import Registry
import Testing
import TestSupport

/// One case over HTTP for each finding of the measurement that showed `:check` calling wrong
/// values valid (and valid ones wrong): the official suite's headline cases, the device's rules
/// and the publish refusals, each with the answer the registry now owes.
@Suite struct CheckMeasurementsAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    /// Publishes `schema` as version 1 of `type`; the tests then check values against it.
    private func publish(_ type: String, _ schema: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let response = try tenant.publish(type, schema, version: 1)
        try #require((200..<300).contains(response.status), "\(response.bodyText)", sourceLocation: sourceLocation)
    }

    /// Checks one update's content state against version 1 of `type`.
    private func check(_ type: String, _ contentState: JSONObject, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (valid: Bool?, problems: [JSONValue])
    {
        let response = try tenant.post(
            ["application": .string(tenant.code), "event": "update", "content_state": .object(contentState)],
            path: "/api/live_activity_schemas/\(type)/1:check")
        try #require(response.status == 200, "\(response.bodyText)", sourceLocation: sourceLocation)
        let body = try response.json()
        return (body["valid"]?.boolValue, body["problems"]?.arrayValue ?? [])
    }

    private func severities(_ problems: [JSONValue], at path: String) -> [String] {
        problems.filter { $0["path"]?.stringValue?.hasSameBytes(as: path) == true }.compactMap { $0["severity"]?.stringValue }
    }

    // MARK: format

    /// `format` is an annotation in draft 2020-12: a mismatch is a warning beside the field.
    @Test func aFormatMismatchIsAWarning() throws {
        try publish("Homepage", #"{"type":"object","properties":{"homepage":{"type":"string","format":"uri"}}}"#)
        let (valid, problems) = try check("Homepage", ["homepage": "not a url"])
        #expect(valid == true, "\(problems)")
        #expect(severities(problems, at: "content-state.homepage") == ["warning"], "\(problems)")
    }

    /// The registry's root keyword `x-assert-formats` makes `format` an assertion.
    @Test func aFormatMismatchIsAnErrorWhenTheSchemaAssertsFormats() throws {
        try publish(
            "AssertedHomepage", #"{"type":"object","x-assert-formats":true,"properties":{"homepage":{"type":"string","format":"uri"}}}"#)
        let (valid, problems) = try check("AssertedHomepage", ["homepage": "not a url"])
        #expect(valid == false)
        #expect(severities(problems, at: "content-state.homepage") == ["error"], "\(problems)")
        #expect(try check("AssertedHomepage", ["homepage": "https://example.com/"]).valid == true)
    }

    /// The app decodes a `UUID` field with `UUID(uuidString:)`: text that is no UUID fails the update.
    @Test func aUUIDFieldRefusesTextThatIsNoUUID() throws {
        try publish("Identified", #"{"type":"object","properties":{"id":{"type":"string","format":"uuid","x-swift-type":"UUID"}}}"#)
        let (valid, problems) = try check("Identified", ["id": "not-a-uuid"])
        #expect(valid == false)
        #expect(severities(problems, at: "content-state.id") == ["error"], "\(problems)")
        #expect(try check("Identified", ["id": "2F1C6A4E-8B5D-4C1E-9F7A-3D2B1C0E4F5A"]).valid == true)
    }

    // MARK: applicators the measurement found ignored or misapplied

    /// `items` applies after the `prefixItems` positions only.
    @Test func itemsStartsAfterPrefixItems() throws {
        try publish("Row", #"{"type":"object","properties":{"row":{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}}}"#)
        #expect(try check("Row", ["row": ["x", 2, 3]]).valid == true)
        #expect(try check("Row", ["row": ["x", "y"]]).valid == false)
    }

    /// A property a pattern matches is not additional: `additionalProperties: false` leaves it
    /// to `patternProperties`.
    @Test func patternPropertiesAreNotAdditional() throws {
        try publish(
            "Patterned", #"{"type":"object","properties":{"v":{"patternProperties":{"f.o":{"minItems":2}},"additionalProperties":false}}}"#)
        #expect(try check("Patterned", ["v": ["fxo": [1, 2]]]).valid == true)
        #expect(try check("Patterned", ["v": ["fxo": []]]).valid == false)
        #expect(try check("Patterned", ["v": ["bar": 1]]).valid == false)
    }

    // MARK: regular expressions and numbers

    /// `\W` and `\d` are ECMA-262's ASCII classes: `é` is a non-word character, N'Ko digit
    /// zero is no digit.
    @Test func patternClassesAreECMAScripts() throws {
        try publish("NonWord", #"{"type":"object","properties":{"v":{"type":"string","pattern":"^\\W$"}}}"#)
        try publish("Digit", #"{"type":"object","properties":{"v":{"type":"string","pattern":"^\\d$"}}}"#)
        #expect(try check("NonWord", ["v": "\u{E9}"]).valid == true)
        #expect(try check("Digit", ["v": "\u{07C0}"]).valid == false)
        #expect(try check("Digit", ["v": "7"]).valid == true)
    }

    /// `multipleOf` is exact at any size: 1e308 is a multiple of 0.5.
    @Test func multipleOfIsExactAtAnySize() throws {
        try publish("Halves", #"{"type":"object","properties":{"v":{"type":"integer","multipleOf":0.5}}}"#)
        #expect(try check("Halves", ["v": .number("1e308")]).valid == true)
        #expect(try check("Halves", ["v": .number("1.5")]).valid == false)
    }

    // MARK: the device's decoding

    /// A content field the root `required` lists is one the app's ContentState cannot decode
    /// without; a schema without a root `required` leaves every field optional.
    @Test func aMissingRequiredContentFieldIsAnError() throws {
        let properties = #""properties":{"gate":{"type":"string"},"status":{"type":"string"}}"#
        try publish("GateNeeded", #"{"type":"object",\#(properties),"required":["gate"]}"#)
        try publish("GateOptional", #"{"type":"object",\#(properties)}"#)
        let (valid, problems) = try check("GateNeeded", ["status": "boarding"])
        #expect(valid == false)
        #expect(severities(problems, at: "content-state.gate") == ["error"], "\(problems)")
        #expect(try check("GateOptional", ["status": "boarding"]).valid == true)
    }

    // MARK: publishing

    /// The registry never fetches: a reference to another document is refused at publish,
    /// naming the reference and where it stands.
    @Test func aRemoteReferenceIsRefusedAtPublishNamingIt() throws {
        let response = try tenant.publish("RemoteReference", #"{"type":"object","properties":{"v":{"$ref":"https://example.com/x.json"}}}"#)
        try expectError(response, status: 400, code: 3, mentioning: "https://example.com/x.json")
        let message = try response.json()["message"]?.stringValue ?? ""
        #expect(message.hasBytePrefix("jsonSchema.properties.v"), "\(message)")
    }

    /// An unknown keyword changes nothing (JSON Schema ignores it), so a misspelled
    /// `maxLenght` publishes and limits nothing, and publish warns at its path with the
    /// keyword it resembles.
    @Test func aMisspelledKeywordIsAcceptedIgnoredAndWarnedAbout() throws {
        let response = try tenant.publish("Misspelled", #"{"type":"object","properties":{"gate":{"type":"string","maxLenght":3}}}"#)
        try #require((200..<300).contains(response.status), "\(response.bodyText)")
        #expect(try check("Misspelled", ["gate": "B12345"]).valid == true)
        let warnings = try response.json()["warnings"]?.arrayValue ?? []
        let warning = warnings.first { $0["path"]?.stringValue?.hasSameBytes(as: "jsonSchema.properties.gate.maxLenght") == true }
        #expect(warning?["message"]?.stringValue?.contains(#""maxLength""#) == true, "\(response.bodyText)")
    }
}
