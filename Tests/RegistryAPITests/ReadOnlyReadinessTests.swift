import HTTPServer
import Registry
import RegistryAPI
import Testing
import TestSupport

/// `/readyz` while no primary is reachable but a standby serves reads: it says `read-only`,
/// with 200 or 503 as the operator chose; a real problem still wins.
@Suite struct ReadOnlyReadinessTests {
    static func readyz(_ operations: Operations) throws -> (status: Int, body: JSONValue) {
        let api = RegistryAPI.operationsOnly(metrics: Metrics(), operations: operations, logger: Logger(minimumLevel: .error))
        let response = api.handle(HTTPRequest(method: "GET", path: "/readyz"))
        return (response.status, try JSONParser.parse(response.body))
    }

    @Test(arguments: [(true, 200), (false, 503)])
    func readOnlyIsReportedAndCountsAsTheOperatorChose(ready: Bool, status: Int) throws {
        let (answered, body) = try Self.readyz(Operations(isReadOnly: { true }, readOnlyIsReady: ready))
        #expect(answered == status)
        #expect(body["status"] == "read-only")
    }

    @Test func aRealProblemWinsOverReadOnly() throws {
        let (answered, body) = try Self.readyz(Operations(unreadyReason: { "shutting down" }, isReadOnly: { true }))
        #expect(answered == 503)
        #expect(body["status"] == "unavailable")
    }

    @Test func withAPrimaryItIsReady() throws {
        let (answered, body) = try Self.readyz(Operations())
        #expect(answered == 200)
        #expect(body["status"] == "ready")
    }
}
