import HTTPServer
import Registry

/// Checks of Live Activity push data against published schemas: `:check` for the
/// values a journey would send, `:preview` for the exact APNs request a notification implies.
enum PushHandlers {
    // The push endpoints are documented with the proto spelling, so their messages use it too.
    static let contentState = FieldName("contentState", "content_state", shown: .snake)
    static let bundleID = FieldName("bundleId", "bundle_id", shown: .snake)
    static let schemaVersion = FieldName("schemaVersion", "schema_version", shown: .snake)
    static let attributesType = FieldName("attributesType", "attributes_type", shown: .snake)

    static func check(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let attributesType = try call.pathAttributesType()
        return try await check(call, attributesType, version: call.pathVersion())
    }

    /// `…/latest:check`: against the newest live version, which the answer names.
    static func checkLatest(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        try await check(call, call.pathAttributesType(), version: nil)
    }

    /// The body is checked first; then the application, the newest version (when asked for)
    /// and the version are read on the loop, and the values are checked there, or on a
    /// handler thread when the schema or the body is large.
    /// - Parameter version: nil for the newest live version.
    private static func check(_ call: Call, _ attributesType: String, version requested: Int32?)
        async throws(RegistryError) -> HTTPResponse
    {
        let body = try call.body()
        let code = try body.requiredString(.application)
        let eventName = try body.requiredString(.event)
        guard let event = LiveActivityEvent(exactly: eventName) else {
            throw .invalidArgument("event: must be \"start\", \"update\" or \"end\", not \(ClientText.quoted(eventName))")
        }
        let state = try object(body, contentState, required: true) ?? [:]
        let attributes = try object(body, FieldName("attributes"), required: false)
        let application = try await call.application(code: code)
        let schema = try await newestOrRequested(call, application: application, attributesType: attributesType, version: requested)
        return try await call.compute(heavy: Reviews.isHeavy(schema.jsonSchema, body: call.request.body)) { () throws(RegistryError) in
            let result = PushValueChecker.check(
                try call.caches.documents.document(of: schema), event: event, contentState: state, attributes: attributes)
            var answer = result.json
            if requested == nil, case .object(var fields) = answer {
                fields["version"] = .number(String(schema.version))
                answer = .object(fields)
            }
            return VersionNotice.noting(schema, in: JSONResponse.make(VersionNotice.warned(answer, about: schema)))
        }
    }

    /// The body is checked first; then the application and the schema (when the push names a
    /// type) are read on the loop, and the preview is made there, or on a handler thread when
    /// the schema or the body is large.
    static func preview(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let body = try call.body()
        let code = try body.requiredString(.application)
        let bundle = try body.requiredString(bundleID)
        let requestedVersion = try body.value(schemaVersion).flatMap { value throws(RegistryError) -> Int32? in
            value.isNull ? nil : try VersionNumber.parse(value, field: schemaVersion.shown)
        }
        let activity = body.object["live_activity"]?.objectValue
        let liveCall = LiveActivityCall(event: activity?["event"])
        var attributesType = activity?["attributes-type"]?.stringValue
        if let named = attributesType, !named.isEmpty {
            try AttributesTypeName.validate(named, field: "live_activity.attributes-type")
        } else {
            attributesType = try body.string(Self.attributesType)
        }
        let application = try await call.application(code: code)
        var schema: SchemaVersion?
        if let attributesType, !attributesType.isEmpty {
            schema = try await newestOrRequested(call, application: application, attributesType: attributesType, version: requestedVersion)
        }
        return try await call.compute(heavy: schema.map { Reviews.isHeavy($0.jsonSchema, body: call.request.body) } ?? false) {
            [schema] () throws(RegistryError) in
            let result = LiveActivityPreview.preview(
                body.object, call: liveCall, bundleID: bundle,
                schema: try schema.map { version throws(RegistryError) in try call.caches.documents.document(of: version) }, now: call.clock())
            guard let schema else { return JSONResponse.make(result.json) }
            return VersionNotice.noting(schema, in: JSONResponse.make(VersionNotice.warned(result.json, about: schema)))
        }
    }

    /// The version asked for, or the one `latest` names: previews follow what a journey would
    /// use today. A disabled version is refused.
    private static func newestOrRequested(_ call: Call, application: Application, attributesType: String, version: Int32?)
        async throws(RegistryError) -> SchemaVersion
    {
        let number: Int32
        if let version { number = version } else { number = try await LatestHandlers.newestVersion(call, application, attributesType) }
        return try await SchemaHandlers.readVersion(call, application, attributesType, number)
    }

    private static func object(_ body: BodyFields, _ field: FieldName, required: Bool) throws(RegistryError) -> JSONObject? {
        switch try body.value(field) {
        case nil, .null?:
            if required { throw .invalidArgument("\(field.shown): is required and must be an object") }
            return nil
        case .object(let object)?:
            return object
        case let other?:
            throw .invalidArgument("\(field.shown): must be an object, not \(other.typeName)")
        }
    }
}
