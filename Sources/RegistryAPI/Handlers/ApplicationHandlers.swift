import HTTPServer
import Registry

/// `GET /api/applications`: the applications the token may reach (those of its account, or
/// the ones it is limited to), so a client (the control panel) can offer a choice instead of
/// asking for a code.
enum ApplicationHandlers {
    /// Read on the loop: one account's applications, a short list.
    static func list(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let applications = try await call.read { try await $0.applications(accountID: call.accountID ?? -1) }
        let items: [JSONValue] = applications.filter { application in call.token?.reaches(application) ?? false }.map { application in
            ["code": .string(application.code), "name": .string(application.name), "created": .string(application.created)]
        }
        return JSONResponse.make(["applications": .array(items)])
    }
}
