import Foundation
import Registry
import RegistryAPI
import RegistryPostgres
import Testing
import TestSupport

/// Tokens limited to some applications of their account, `GET /api/token`, and expiry.
@Suite struct TokenLimitsAPITests {
    static let schema = ScopeMatrixAPITests.schema

    @Test func aTokenLimitedToOneApplicationGets403ForTheOthersAndListsOnlyItsOwn() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let admin = AdminStore(pool: registry.pool)
        let other = try admin.createApplication(accountID: owner.accountID, name: "other app")
        let limited = try admin.tenant(like: owner, terms: TokenTerms(scope: .publish, applicationCodes: [owner.code]))

        #expect(try limited.publish("Limited", Self.schema).status == 200)
        try expectError(
            try limited.on(application: other).publish("Limited", Self.schema), status: 403, code: 7, mentioning: "limited to other applications")
        try expectError(
            try limited.request("GET", "/api/live_activity_schemas?application=\(other)"), status: 403, code: 7)
        // The owner's unlimited token reaches both.
        #expect(try owner.on(application: other).publish("Limited", Self.schema).status == 200)

        let listed = try limited.request("GET", "/api/applications")
        let codes = try listed.json()["applications"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
        #expect(codes == [owner.code], "\(listed.bodyText)")
        let all = try owner.request("GET", "/api/applications").json()["applications"]?.arrayValue?.count
        #expect(all == 2)
    }

    @Test func tokenEndpointTellsScopeApplicationsNameAndExpiry() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let reader = try AdminStore(pool: registry.pool).tenant(
            like: owner, terms: TokenTerms(scope: .read, name: "journey builder", applicationCodes: [owner.code], lifetimeSeconds: 86_400))
        let response = try reader.request("GET", "/api/token")
        #expect(response.status == 200, "\(response.bodyText)")
        let token = try #require(try response.json()["token"])
        #expect(token["scope"] == "read")
        #expect(token["name"] == "journey builder")
        #expect(token["account_id"]?.int64 == owner.accountID)
        #expect(token["id"]?.int64 == reader.tokenID)
        #expect(token["applications"] == .array([.string(owner.code)]))
        let expires = try #require(token["expires"]?.stringValue)
        #expect(expires.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
        #expect(!response.bodyText.contains(reader.token), "never the secret")

        let unlimited = try owner.request("GET", "/api/token").json()["token"]
        #expect(unlimited?["scope"] == "admin" && unlimited?["applications"] == .null && unlimited?["expires"] == .null)
    }

    @Test func anExpiredTokenIs401EvenWhileItsLookupIsCached() throws {
        let registry = try TestRegistry(
            databaseURL: TestPostgres.shared.makeDatabase(), caching: CacheSettings(responseBytes: 0, lookupSeconds: 10))
        defer { registry.stop() }
        let owner = try registry.makeTenant()
        let shortLived = try AdminStore(pool: registry.pool).tenant(like: owner, terms: TokenTerms(scope: .read, lifetimeSeconds: 2))
        let issued = Date()
        #expect(try shortLived.request("GET", "/api/token").status == 200)
        Thread.sleep(until: issued.addingTimeInterval(2.3))
        let after = try shortLived.request("GET", "/api/token")
        try expectError(after, status: 401, code: 16, mentioning: "expired")
    }

    @Test func lastUsedIsWrittenOncePerDayNotOncePerRequest() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let admin = AdminStore(pool: registry.pool)
        #expect(try admin.listTokens(accountID: owner.accountID).first?.lastUsedOn == nil)
        let rowVersion = PGStatement("test_token_row_version", "SELECT xmin::text FROM api_tokens WHERE id = $1::bigint")
        let before = try registry.pool.withConnection { try $0.execute(rowVersion, [owner.tokenID]).rows[0].string(0) }
        #expect(try owner.request("GET", "/api/token").status == 200)
        let afterFirst = try registry.pool.withConnection { try $0.execute(rowVersion, [owner.tokenID]).rows[0].string(0) }
        #expect(afterFirst != before, "the first use of the day writes the day")
        for _ in 0..<5 { #expect(try owner.request("GET", "/api/token").status == 200) }
        let afterMore = try registry.pool.withConnection { try $0.execute(rowVersion, [owner.tokenID]).rows[0].string(0) }
        #expect(afterMore == afterFirst, "later uses the same day write nothing")
        let lastUsed = try #require(try admin.listTokens(accountID: owner.accountID).first?.lastUsedOn)
        #expect(lastUsed.wholeMatch(of: /\d{4}-\d\d-\d\d/) != nil)
    }
}

extension JSONValue {
    var int64: Int64? { integerLexemeValue.map(Int64.init) }
}
