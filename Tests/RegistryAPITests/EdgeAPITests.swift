import Foundation
import Registry
import RegistryAPI
import RegistryPostgres
import Testing
import TestSupport

/// What a client sends must not grow what the service keeps or says: error messages quote a
/// bounded prefix of any value, methods are a bounded metrics label, bad tokens are remembered
/// briefly, and every answer forbids content sniffing.
@Suite struct EdgeAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    struct Echo: CustomStringConvertible, Sendable {
        let description: String
        let method: String
        let target: String
        let body: String?
        let status: Int
        let length: Int
    }

    static let long = 1_000_000

    static func echoes() -> [Echo] {
        let huge = String(repeating: "a", count: long)
        let flight = #"{"type":"object","properties":{"gate":{"type":"string"}}}"#
        func publish(_ members: String) -> String { #"{"application":"APP",\#(members)}"# }
        let longKey = String(repeating: "k", count: 30_000)
        return [
            Echo(description: "application in a body", method: "POST", target: "/api/live_activity_schemas",
                 body: #"{"application":"\#(huge)","attributesType":"T","jsonSchema":\#(JSONWriter.string(.string(flight)))}"#,
                 status: 404, length: long),
            Echo(description: "version of 1,000 digits", method: "POST", target: "/api/live_activity_schemas",
                 body: publish(#""attributesType":"T","version":"\#(String(repeating: "9", count: 1000))x","jsonSchema":\#(JSONWriter.string(.string(flight)))"#),
                 status: 400, length: 1001),
            Echo(description: "event", method: "POST", target: "/api/live_activity_schemas/T/1:check",
                 body: publish(#""event":"\#(String(repeating: "e", count: 100_000))","content_state":{}"#),
                 status: 400, length: 100_000),
            Echo(description: "schema key", method: "POST", target: "/api/live_activity_schemas",
                 body: publish(#""attributesType":"T","jsonSchema":\#(JSONWriter.string(.string(#"{"type":"object","properties":{"\#(longKey)":5}}"#)))"#),
                 status: 400, length: 30_000),
            Echo(description: "duplicate schema key", method: "POST", target: "/api/live_activity_schemas",
                 body: publish(#""attributesType":"T","jsonSchema":\#(JSONWriter.string(.string(#"{"\#(longKey)":1,"\#(longKey)":2}"#)))"#),
                 status: 400, length: 30_000),
            Echo(description: "unknown path", method: "GET", target: "/" + String(repeating: "p", count: 20_000),
                 body: nil, status: 404, length: 20_001),
        ]
    }

    @Test(arguments: echoes())
    func errorMessagesQuoteAtMost128BytesOfAClientValueAndSayHowLongItWas(_ echo: Echo) throws {
        #expect(try tenant.publish("T", #"{"type":"object","properties":{"gate":{"type":"string"}}}"#).status == 200)
        let body = echo.body?.replacingOccurrences(of: #""APP""#, with: JSONWriter.string(.string(tenant.code)))
        let response = try tenant.request(echo.method, echo.target, body: body)
        #expect(response.status == echo.status, "\(response.status) \(response.bodyText.prefix(200))")
        let message = try response.json()["message"]?.stringValue ?? ""
        #expect(message.utf8.count < 700, "the message echoes \(message.utf8.count) bytes")
        let grouped = echo.length.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        #expect(message.contains("… (\(grouped) bytes)"), "\(message.prefix(400))")
    }

    @Test func shortValuesAreQuotedWhole() throws {
        let response = try tenant.request("GET", "/api/live_activity_schemas/Nope/1?application=\(tenant.code)")
        #expect(try response.json()["message"]?.stringValue == #"attributesType "Nope" version 1 not found"#)
    }

    @Test func unknownMethodsShareOneMetricsLabel() throws {
        let registry = try TestRegistry.shared()
        for index in 0..<40 {
            let response = try tenant.request("X\(index)UNIQUEMETHOD", "/api/live_activity_schemas?application=\(tenant.code)")
            #expect(response.status == 405)
        }
        let metrics = try RawHTTPClient.send(port: registry.port, target: "/metrics")
        #expect(!metrics.bodyText.contains("UNIQUEMETHOD"))
        #expect(metrics.bodyText.contains(#"method="other""#))
    }

    @Test func everyAnswerForbidsContentSniffing() throws {
        let answers = [
            try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)"),
            try tenant.request("GET", "/api/live_activity_schemas/Nope/1?application=\(tenant.code)"),
            try tenant.request("GET", "/api/applications", token: "wrong"),
            try tenant.request("GET", "/panel/app.js", token: .none),
            try RawHTTPClient.parse(RawHTTPClient.sendRaw(
                port: tenant.port,
                bytes: Array("POST /api/applications HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n".utf8))),
        ]
        for answer in answers {
            #expect(answer.header("x-content-type-options") == "nosniff", "status \(answer.status)")
        }
    }

    /// A token that failed is answered from memory for the lookup lifetime: registering it in
    /// the database meanwhile changes nothing until the entry expires.
    @Test func aFailedTokenLookupIsRememberedForTheLookupLifetime() throws {
        let shared = try TestRegistry.shared()
        let clock = TestClock()
        let registry = try TestRegistry(
            databaseURL: shared.databaseURL, poolSize: 2, workers: 2,
            caching: CacheSettings(responseBytes: 0, lookupSeconds: 1.5), clock: clock.now)
        defer { registry.stop() }
        let secret = APIToken.generate().secret
        let target = "/api/live_activity_schemas?application=\(tenant.code)"
        let send = { try RawHTTPClient.send(port: registry.port, target: target, headers: [("Authorization", "Api \(secret)")]) }
        #expect(try send().status == 401)
        _ = try AdminStore(pool: shared.pool).issueToken(accountID: tenant.accountID, tokenHash: APIToken.hash(secret))
        #expect(try send().status == 401, "the failure was looked up again instead of remembered")
        clock.advance(by: 1.6)
        #expect(try send().status == 200)
    }
}
