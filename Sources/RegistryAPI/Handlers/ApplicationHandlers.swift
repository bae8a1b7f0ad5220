import HTTPServer
import Registry

/// `GET /api/applications`: the applications the token may reach (those of its account, or
/// the ones it is limited to), so a client (the control panel) can offer a choice instead of
/// asking for a code.
enum ApplicationHandlers {
    static func list(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let applications = try call.store.run({ try $0.applications(accountID: call.accountID ?? -1) }).filter { application in
            call.token?.reaches(application) ?? false
        }
        let items: [JSONValue] = applications.map { application in
            ["code": .string(application.code), "name": .string(application.name), "created": .string(application.created)]
        }
        return JSONResponse.make(["applications": .array(items)])
    }
}
