import HTTPServer
import Registry
import Testing

@testable import RegistryAPI

/// The one map from errors to responses: every code has its status, the refusals only HTTP has
/// carry their headers, and domain errors carry none.
@Suite struct ErrorResponseTests {
    /// Every gRPC code the service knows and the status it answers with. A code added without
    /// a row here fails `everyCodeHasItsStatus`.
    static let statuses: [(GRPCCode, Int)] = [
        (.invalidArgument, 400),
        (.unauthenticated, 401),
        (.permissionDenied, 403),
        (.notFound, 404),
        (.unimplemented, 405),
        (.alreadyExists, 409),
        (.resourceExhausted, 413),
        (.internal, 500),
        (.unavailable, 503),
    ]

    static func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.name == name }?.value
    }

    static func body(_ response: HTTPResponse) throws -> JSONValue {
        try JSONParser.parse(response.body)
    }

    @Test func everyCodeHasItsStatus() throws {
        #expect(Set(Self.statuses.map(\.0.rawValue)) == Set(GRPCCode.allCases.map(\.rawValue)))
        #expect(Self.statuses.count == GRPCCode.allCases.count)
        for (code, status) in Self.statuses {
            #expect(ErrorResponse.status(for: code) == status, "\(code)")
            let response = ErrorResponse.make(RegistryError(code: code, message: "m"))
            #expect(response.status == status, "\(code)")
            #expect(try Self.body(response)["code"] == .number(String(code.rawValue)), "\(code)")
        }
    }

    @Test func aDomainErrorCarriesOnlyTheContentTypeAndItsDetails() throws {
        let error = RegistryError(code: .alreadyExists, message: "taken", details: [["kind": "report"]])
        let response = ErrorResponse.make(error)
        #expect(response.headers.map(\.name) == ["Content-Type"])
        #expect(try Self.body(response) == ["code": .number("6"), "message": "taken", "details": [["kind": "report"]]])
        #expect(ErrorResponse.make(.unavailable("database unreachable")).headers.map(\.name) == ["Content-Type"])
    }

    @Test func aWrongMethodIs405WithAllow() throws {
        let response = ErrorResponse.make(APIRefusal.methodNotAllowed(method: "PATCH", allow: ["GET", "DELETE"]))
        #expect(response.status == 405)
        #expect(Self.header(response, "Allow") == "GET, DELETE")
        #expect(try Self.body(response)["code"] == .number("12"))
        #expect(try Self.body(response)["message"] == "method PATCH is not allowed here")
    }

    @Test func aBodyOverTheLimitIs413() throws {
        let response = ErrorResponse.make(APIRefusal.bodyTooLarge(limit: 10))
        #expect(response.status == 413)
        #expect(response.headers.map(\.name) == ["Content-Type"])
        #expect(try Self.body(response)["code"] == .number("8"))
        #expect(try Self.body(response)["message"] == "request body is larger than 10 bytes")
    }

    @Test func aBusyRefusalIs503WithRetryAfter() throws {
        for refusal in [HeavyWorkGate.busy, ChangeHandlers.tooManyWaiting] {
            let response = ErrorResponse.make(refusal)
            #expect(response.status == 503)
            #expect(Self.header(response, "Retry-After") == "1")
        }
        // Without a retry hint, an unavailable error carries no Retry-After.
        #expect(Self.header(ErrorResponse.make(.unavailable("down")), "Retry-After") == nil)
    }
}
