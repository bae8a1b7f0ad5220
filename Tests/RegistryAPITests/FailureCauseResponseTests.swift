import HTTPServer
import Registry
import RegistryPostgres
import Testing

@testable import RegistryAPI

/// A database failure's cause goes to the log and nowhere else: the response to an error with a
/// cause is byte for byte the response to the same error without one.
@Suite struct FailureCauseResponseTests {
    static let causes: [PGError] = [
        PGError(
            kind: .server, sqlState: .queryCanceled, statement: "store_get_version",
            logMessage: "canceling statement due to statement timeout"),
        PGError(kind: .server, sqlState: SQLState("42P01"), statement: "store_publish_next_free", logMessage: "relation \"x\" does not exist"),
        PGError(kind: .connectionFailed, logMessage: "connection to server at \"db.internal\" failed: Connection refused"),
        PGError(kind: .timeout, statement: "store_newest_live", debugDetail: "no answer within the response timeout"),
    ]

    @Test(arguments: causes)
    func theResponseIsThatOfTheErrorWithoutItsCause(_ failure: PGError) throws {
        let error = failure.registryError
        let cause = try #require(error.cause)
        let bare = RegistryError(code: error.code, message: error.message, retryAfterSeconds: error.retryAfterSeconds)
        let response = ErrorResponse.make(error)
        let expected = ErrorResponse.make(bare)
        #expect(response.status == expected.status)
        #expect(response.body == expected.body)
        #expect(response.headers.map { "\($0.name): \($0.value)" } == expected.headers.map { "\($0.name): \($0.value)" })
        let shown = String(decoding: response.body, as: UTF8.self) + response.headers.map(\.value).joined()
        for hidden in [cause.kind, cause.sqlState, cause.statement, cause.message].compactMap({ $0 }) {
            #expect(!shown.contains(hidden), "the response shows \(hidden)")
        }
    }

    @Test func theLogFieldsNameTheCause() {
        let error = Self.causes[0].registryError
        #expect(
            error.logFields == [
                "code": .number("14"), "error": "database unavailable", "cause_kind": "database_error", "cause_sqlstate": "57014",
                "cause_statement": "store_get_version", "cause": "canceling statement due to statement timeout",
            ])
        #expect(RegistryError.internal().logFields == ["code": .number("13"), "error": "internal error"])
        struct Opaque: Error { let secret = "s3cret" }
        #expect(RegistryError.logFields(of: Opaque()) == ["error": "unexpected Opaque"])
    }
}
