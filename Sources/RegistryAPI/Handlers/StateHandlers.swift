import HTTPServer
import Registry

/// A version's state (`:deprecate`, `:disable`, `:restore`) and a type's `latest` pin
/// (`PUT`/`DELETE …/latest_pin`). Each change is one statement with its audit event, read on
/// the loop; this replica forgets what the change makes stale as soon as it commits, and the
/// others learn it from the change feed (`RegistryAPI.apply`). Each answers once the live
/// replicas have applied the change, or the propagation timeout passed (`PropagationBarrier`).
enum StateHandlers {
    static let message = FieldName("message")
    static let sunset = FieldName("sunset")
    static let reason = FieldName("reason")

    /// Body `{"message": "…", "sunset": "<RFC 3339>"?}`.
    static func deprecate(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let text = try body.requiredString(message)
        try StateChange.validateText(text, field: "message")
        let date = try body.string(sunset).flatMap { date throws(RegistryError) -> String? in
            guard !date.isEmpty else { return nil }
            guard StateChange.isSunset(date) else {
                throw .invalidArgument("sunset: must be an RFC 3339 date-time from 1970 on, such as 2027-03-01T00:00:00Z")
            }
            return date
        }
        return try await change(call, to: .deprecate(message: text, sunset: date))
    }

    /// Body `{"reason": "…"}`.
    static func disable(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let text = try call.body().requiredString(reason)
        try StateChange.validateText(text, field: "reason")
        return try await change(call, to: .disable(reason: text))
    }

    /// Body `{}` (or none): back to active from either state.
    static func restore(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        if !call.request.body.isEmpty { _ = try call.body() }
        return try await change(call, to: .restore)
    }

    /// Changes the state and answers `{"schema": <the version as it now is>, "usage": <summary>}`:
    /// who still reads the version is what the person changing it needs to see.
    private static func change(_ call: Call, to change: StateChange) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType, version) = try call.versionPath()
        let application = try await call.application(code: code)
        let usage = try await UsageHandlers.summary(call, application, attributesType, version: version)
        let changed = try await call.read {
            try await $0.changeState(application: application, attributesType: attributesType, version: version, to: change, by: call.actor)
        }
        guard let schema = changed else { throw SchemaHandlers.notFound(attributesType, version) }
        call.caches.forget(CommittedChange(applicationID: application.id, kind: .stateChanged, attributesType: attributesType, version: version))
        let propagation = await PropagationBarrier.wait(call)
        return VersionNotice.noting(schema, in: JSONResponse.make(answer(schema, usage: usage, propagation: propagation)))
    }

    /// The answer of a state change.
    static func answer(_ schema: SchemaVersion, usage: JSONValue, propagation: JSONValue) -> JSONValue {
        .object(["schema": SchemaJSON.object(schema), "usage": usage, "propagation": propagation])
    }

    /// Body `{"version": N}`: the version must be live and not disabled.
    static func pin(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        guard let value = try body.value(.version), !value.isNull else { throw .invalidArgument("version: is required") }
        let version = try VersionNumber.parse(value)
        let (code, attributesType) = try call.typePath()
        let application = try await call.application(code: code)
        let pinned = try await call.read {
            try await $0.pinLatest(application: application, attributesType: attributesType, version: version, by: call.actor)
        }
        guard pinned else {
            let read = try await call.read { try await $0.schema(application: application, attributesType: attributesType, version: version) }
            guard let schema = read else { throw SchemaHandlers.notFound(attributesType, version) }
            throw .invalidArgument(
                "version: version \(schema.version) of \(ClientText.quoted(attributesType)) is disabled and cannot be latest; restore it first")
        }
        return try await pinAnswer(call, application, attributesType)
    }

    /// Removes the pin: `latest` follows the rule again. 404 when none was set.
    static func unpin(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType) = try call.typePath()
        let application = try await call.application(code: code)
        let removed = try await call.read { try await $0.unpinLatest(application: application, attributesType: attributesType, by: call.actor) }
        guard removed != nil else { throw .notFound("attributesType \(ClientText.quoted(attributesType)) has no latest pin") }
        return try await pinAnswer(call, application, attributesType)
    }

    /// `{"application", "attributes_type", "latest_pin"?, "latest"?, "propagation"}`, read after
    /// the change committed; `latest` is absent when the type has no version it could name.
    private static func pinAnswer(_ call: Call, _ application: Application, _ attributesType: String)
        async throws(RegistryError) -> HTTPResponse
    {
        call.caches.forget(CommittedChange(applicationID: application.id, kind: .latestPinned, attributesType: attributesType, version: nil))
        let propagation = await PropagationBarrier.wait(call)
        let candidates = try await call.read { try await $0.latestCandidates(application: application, attributesType: attributesType) }
        var answer: JSONObject = ["application": .string(application.code), "attributes_type": .string(attributesType)]
        if let pin = candidates.pinned { answer["latest_pin"] = .number(String(pin)) }
        if let latest = candidates.latest { answer["latest"] = .number(String(latest)) }
        answer["propagation"] = propagation
        return JSONResponse.make(.object(answer))
    }
}
