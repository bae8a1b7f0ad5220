import HTTPServer
import Registry

/// Reading and setting compatibility policies: an application's (the default of its types) at
/// `/api/applications/{application}/compatibility_policy`, a type's (overriding it) at
/// `/api/live_activity_types/{attributesType}/compatibility_policy?application=…`. Reading
/// answers the policy in force and where it was set; removing falls back to the next one up.
enum PolicyHandlers {
    /// Reads, sets and removes on the loop: each is one statement (a change with its audit
    /// event).
    static func get(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType) = try addressPath(call)
        let application = try await call.application(code: code)
        return try await answeringInForce(call, application, attributesType)
    }

    static func set(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let (code, attributesType) = try addressPath(call)
        let application = try await call.application(code: code)
        // Checked once the caller may touch the application, so a refusal comes first.
        let policy = try PolicyRequest.policy(body)
        let effective = try await call.read {
            try await $0.setCompatibilityPolicy(application: application, attributesType: attributesType, to: policy, by: call.actor)
        }
        return respond(effective, application: application, attributesType: attributesType)
    }

    /// Answers with the policy now in force, read after the removal committed.
    static func remove(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType) = try addressPath(call)
        let application = try await call.application(code: code)
        let removed = try await call.read {
            try await $0.removeCompatibilityPolicy(application: application, attributesType: attributesType, by: call.actor)
        }
        guard removed else {
            let owner = attributesType.map { "attributesType \(JSONWriter.string(.string($0)))" } ?? "the application"
            throw .notFound("\(owner) has no compatibility policy of its own")
        }
        return try await answeringInForce(call, application, attributesType)
    }

    /// Reads the policy in force and answers with it.
    private static func answeringInForce(_ call: Call, _ application: Application, _ attributesType: String?)
        async throws(RegistryError) -> HTTPResponse
    {
        let effective = try await call.read { try await $0.compatibilityPolicy(application: application, attributesType: attributesType) }
        return respond(effective, application: application, attributesType: attributesType)
    }

    /// The malformed-request checks of `address`: the application's code and (on the type
    /// route) the type, before the application is looked up.
    private static func addressPath(_ call: Call) throws(RegistryError) -> (code: String, attributesType: String?) {
        if let raw = call.rawParameters["application"] {
            guard let code = PercentDecoding.decode(raw), !code.isEmpty else {
                throw .invalidArgument("application: invalid percent-encoding or not UTF-8 in the path")
            }
            return (code, nil)
        }
        return try call.typePath()
    }

    /// `{"policy": {"application", "attributes_type"?, "mode", "enforce",
    /// "oldest_supported_version", "source", "updated"?}}`.
    private static func respond(_ effective: EffectivePolicy, application: Application, attributesType: String?) -> HTTPResponse {
        var policy: JSONObject = ["application": .string(application.code)]
        if let attributesType { policy["attributes_type"] = .string(attributesType) }
        policy.members += effective.policy.jsonValue.members
        policy["source"] = .string(effective.source.rawValue)
        if let updated = effective.updated { policy["updated"] = .string(updated) }
        return JSONResponse.make(["policy": .object(policy)])
    }
}
