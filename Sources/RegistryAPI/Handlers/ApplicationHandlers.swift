import HTTPServer
import Registry

/// `GET /api/applications`: the applications of the token's account, so a client (the
/// control panel) can offer a choice instead of asking for a code.
enum ApplicationHandlers {
    static func list(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let applications = try call.store.applications(accountID: call.accountID ?? -1)
        let items: [JSONValue] = applications.map { application in
            ["code": .string(application.code), "name": .string(application.name), "created": .string(application.created)]
        }
        return JSONResponse.make(["applications": .array(items)])
    }
}
