import HTTPServer
import Registry

/// `GET /api/live_activity_types`: the index of an application's live types for pickers and
/// search boxes, paged like the list, without schema texts.
enum TypeHandlers {
    static let prefix = FieldName("prefix")

    /// Reads on the loop. The whole index (no `pageSize`) has no bound on its rows, so it holds
    /// one of `longPages`' turns, whose number bounds the memory it takes, and is written on a
    /// handler thread when it is longer than the longest page.
    static func list(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let code = try call.query.requiredString(.application)
        let prefix = try call.query.string(prefix).flatMap { text throws(RegistryError) -> String? in
            guard !text.isEmpty else { return nil }
            guard text.unicodeScalars.count <= AttributesTypeName.maxScalars else {
                throw .invalidArgument("prefix: longer than \(AttributesTypeName.maxScalars) characters")
            }
            return text
        }
        let pageSize = try SchemaHandlers.pageSize(call.query.string(.pageSize))
        let after = try call.query.pageToken(TypePageToken.decode)
        let application = try await call.application(code: code)
        let filter = TypeFilter(prefix: prefix, after: after)
        guard let pageSize else {
            return try await call.longPages.holding { () async throws(RegistryError) in
                let rows = try await call.read { try await $0.types(application: application, filter: filter, limit: nil) }
                guard rows.count > SchemaHandlers.maxPageSize else { return page(rows, nil) }
                return try await call.work { page(rows, nil) }
            }
        }
        return page(try await call.read { try await $0.types(application: application, filter: filter, limit: pageSize + 1) }, pageSize)
    }

    /// `rows` (one more than a page, when there is a next page) as a page with its token.
    private static func page(_ rows: [TypeSummary], _ pageSize: Int?) -> HTTPResponse {
        var rows = rows
        let nextToken = PageToken.trim(&rows, to: pageSize) { TypePageToken.encode($0.attributesType) }
        var body: JSONObject = ["types": .array(rows.map(json))]
        if let nextToken { body["next_page_token"] = .string(nextToken) }
        return JSONResponse.make(.object(body))
    }

    /// `latest_pin` only when one is set; `states` always counts the deprecated and disabled
    /// live versions; the type's description, owner and labels when set.
    static func json(_ summary: TypeSummary) -> JSONValue {
        var object: JSONObject = [
            "attributes_type": .string(summary.attributesType),
            "live_versions": .number(String(summary.liveVersions)),
            "newest_version": .number(String(summary.newestVersion)),
            "newest_created": .string(summary.newestCreated),
            "compatibility_policy": [
                "mode": .string(summary.policy.mode),
                "enforce": .string(summary.policy.enforce),
                "oldest_supported_version": .number(String(summary.policy.oldestSupportedVersion)),
            ],
        ]
        if let pin = summary.latestPin { object["latest_pin"] = .number(String(pin)) }
        object["states"] = [
            "deprecated": .number(String(summary.deprecatedVersions)), "disabled": .number(String(summary.disabledVersions)),
        ]
        let metadata = summary.metadata
        if !metadata.description.isEmpty { object["description"] = .string(metadata.description) }
        if !metadata.owner.isEmpty { object["owner"] = .string(metadata.owner) }
        if !metadata.labels.isEmpty { object["labels"] = .object(metadata.labels) }
        return .object(object)
    }
}

/// Type-index page tokens: base64url of `t1:<attributesType>`, the last name of the page.
/// A list token (or anything else) is a 400.
enum TypePageToken {
    static func encode(_ attributesType: String) -> String {
        Base64URL.encode(Array("t1:\(attributesType)".utf8))
    }

    static func decode(_ token: String) throws(RegistryError) -> String {
        let invalid = RegistryError.invalidArgument("pageToken: not a type-index page token issued by this service")
        // Split as bytes: a name may start with a combining mark, which `Character`s would
        // merge with the colon.
        let marker = Array("t1:".utf8)
        guard let bytes = Base64URL.decode(token), bytes.starts(with: marker),
            let attributesType = String(validating: bytes.dropFirst(marker.count), as: UTF8.self)
        else { throw invalid }
        do { try AttributesTypeName.validate(attributesType) } catch { throw invalid }
        return attributesType
    }
}
