import HTTPServer
import Registry

/// `GET /api/token`: what the calling token may do, so a client (the panel, a journey
/// builder) can hide what it cannot do. Never the secret.
enum TokenHandlers {
    static func show(_ call: Call) throws(RegistryError) -> HTTPResponse {
        guard let token = call.token else { throw .unauthenticated("API token is required") }
        var object: JSONObject = [
            "id": .number(String(token.id)), "account_id": .number(String(token.accountID)),
            "scope": .string(token.scope.rawValue), "name": .string(token.name),
        ]
        object["applications"] = token.applicationCodes.map { .array($0.map { .string($0) }) } ?? .null
        object["expires"] = token.expires.map { .string($0) } ?? .null
        return JSONResponse.make(["token": .object(object)])
    }
}
