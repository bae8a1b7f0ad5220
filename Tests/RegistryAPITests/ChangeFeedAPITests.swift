import Registry
import Testing
import TestSupport

/// Request checks of `GET /api/changes` on the in-process registry.
@Suite struct ChangeFeedAPITests {
    @Test(arguments: [
        ("wait=61", "wait"), ("wait=-1", "wait"), ("wait=abc", "wait"), ("wait=99999999999999999999", "wait"),
        ("pageSize=0", "pageSize"), ("pageSize=1001", "pageSize"), ("after=bm9wZQ", "after"), ("after=%FF", "after"),
    ])
    func invalidParametersAre400NamingTheField(query: String, field: String) throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let response = try tenant.request("GET", "/api/changes?application=\(tenant.code)&\(query)")
        #expect(response.status == 400, "\(query): \(response.bodyText)")
        #expect(try response.json()["message"]?.stringValue?.hasPrefix(field) == true, "\(query): \(response.bodyText)")
    }

    @Test func theFeedNeedsATokenOfTheApplicationsAccount() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let other = try registry.makeTenant()
        #expect(try owner.request("GET", "/api/changes?application=\(owner.code)", token: .none).status == 401)
        #expect(try other.request("GET", "/api/changes?application=\(owner.code)").status == 403)
        #expect(try owner.request("GET", "/api/changes").status == 400)
    }
}
