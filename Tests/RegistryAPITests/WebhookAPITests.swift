import Registry
import RegistryAPI
import Testing
import TestSupport

/// Managing webhooks over HTTP: the secret only in the answers that issue it, every malformed
/// field a 400 naming it, another application's webhook unknown, changes audited.
@Suite struct WebhookAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    var path: String { "/api/applications/\(tenant.code)/webhooks" }

    static let valid = #"{"url": "https://93.184.216.34/hook", "events": ["published"], "type_prefix": "Fl", "description": "ci"}"#

    @Test func theSecretIsShownWhenIssuedAndNeverAgain() throws {
        let created = try tenant.request("POST", path, body: Self.valid)
        #expect(created.status == 200, "\(created.bodyText)")
        let secret = try #require(try created.json()["secret"]?.stringValue)
        #expect(WebhookSecret.key(of: secret)?.count == 24)
        let id = try #require(try created.json()["webhook"]?["id"]?.integerLexemeValue)
        for target in [path, "\(path)/\(id)", "/api/audit_events?application=\(tenant.code)"] {
            let read = try tenant.request("GET", target)
            #expect(read.status == 200)
            #expect(!read.bodyText.contains(secret), "\(target)")
        }
        let rotated = try tenant.request("POST", "\(path)/\(id):rotate_secret", body: "{}")
        let fresh = try #require(try rotated.json()["secret"]?.stringValue)
        #expect(fresh != secret)
        #expect(try rotated.json()["webhook"]?["previous_secret_until"]?.stringValue != nil)
        let updated = try tenant.request("PATCH", "\(path)/\(id)", body: #"{"enabled": false, "events": ["deleted", "policy_changed"]}"#)
        #expect(try updated.json()["webhook"]?["enabled"] == false)
        #expect(try updated.json()["webhook"]?["events"] == ["deleted", "policy_changed"])
        let audit = try tenant.request("GET", "/api/audit_events?application=\(tenant.code)").bodyText
        for action in ["webhook_create", "webhook_rotate_secret", "webhook_update"] { #expect(audit.contains(action), "\(action)") }
        #expect(try tenant.request("DELETE", "\(path)/\(id)").status == 200)
        try expectError(try tenant.request("GET", "\(path)/\(id)"), status: 404, code: 5)
    }

    @Test func malformedRequestsAre400sNamingTheField() throws {
        let cases: [(String, String)] = [
            (#"{"events": ["published"]}"#, "url"),
            (#"{"url": "https://93.184.216.34/", "events": []}"#, "events"),
            (#"{"url": "https://93.184.216.34/", "events": ["renamed"]}"#, "events"),
            (#"{"url": "https://93.184.216.34/", "events": "published"}"#, "events"),
            (#"{"url": "https://93.184.216.34/"}"#, "events"),
            (#"{"url": "http://93.184.216.34/", "events": ["published"]}"#, "url"),
            (#"{"url": "https://127.0.0.1/", "events": ["published"]}"#, "url"),
            (#"{"url": "https://localhost/", "events": ["published"]}"#, "url"),
            (#"{"url": "https://93.184.216.34/", "events": ["published"], "enabled": "yes"}"#, "enabled"),
            ("{\"url\": \"https://93.184.216.34/\", \"events\": [\"published\"], \"description\": \"\(String(repeating: "d", count: 1001))\"}", "description"),
            ("{\"url\": \"https://93.184.216.34/\", \"events\": [\"published\"], \"type_prefix\": \"\(String(repeating: "p", count: 201))\"}", "type_prefix"),
        ]
        var checked = 0
        for (body, field) in cases {
            try expectError(try tenant.request("POST", path, body: body), status: 400, code: 3, mentioning: "\(field):")
            checked += 1
        }
        #expect(checked == cases.count)
        try expectError(try tenant.request("GET", "\(path)/abc"), status: 400, code: 3)
        try expectError(try tenant.request("POST", "\(path)/1:rotate_secret", body: #"{"grace_seconds": 604801}"#), status: 400, code: 3)
        try expectError(try tenant.request("POST", "\(path)/1:redeliver", body: "{}"), status: 400, code: 3)
        try expectError(try tenant.request("POST", "\(path)/1:redeliver", body: #"{"since": "nonsense"}"#), status: 400, code: 3)
        try expectError(try tenant.request("GET", "\(path)/1/deliveries?page_size=201"), status: 400, code: 3)
    }

    @Test func anotherApplicationsWebhookIsUnknown() throws {
        let created = try tenant.request("POST", path, body: Self.valid)
        let id = try #require(try created.json()["webhook"]?["id"]?.integerLexemeValue)
        let other = try TestRegistry.shared().makeTenant()
        let foreign = "/api/applications/\(other.code)/webhooks/\(id)"
        try expectError(try other.request("GET", foreign), status: 404, code: 5)
        try expectError(try other.request("DELETE", foreign), status: 404, code: 5)
        try expectError(try other.request("POST", foreign + ":test", body: "{}"), status: 404, code: 5)
        try expectError(try other.request("GET", foreign + "/deliveries"), status: 404, code: 5)
        try expectError(try other.request("GET", "/api/applications/\(tenant.code)/webhooks"), status: 403, code: 7)
        #expect(try tenant.request("GET", "\(path)/\(id)").status == 200)
    }
}
