import HTTPServer
import Registry

/// `GET /api/search`: one query across an application's types (names, descriptions, owners,
/// labels, field names and paths), paged in byte order of type names like the type index, with
/// what matched each type and where.
enum SearchHandlers {
    static let query = FieldName("q")
    static let defaultPageSize = 100

    static func search(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let code = try call.query.requiredString(.application)
        let parsed = try SearchQuery(parsing: call.query.string(query) ?? "")
        let pageSize = try SchemaHandlers.pageSize(call.query.string(.pageSize)) ?? defaultPageSize
        let after = try call.query.pageToken(TypePageToken.decode)
        let application = try await call.application(code: code)
        var results = try await call.read {
            try await $0.search(application: application, query: parsed, after: after, limit: pageSize + 1)
        }
        let nextToken = PageToken.trim(&results, to: pageSize) { TypePageToken.encode($0.attributesType) }
        var body: JSONObject = ["results": .array(results.map(json))]
        if let nextToken { body["next_page_token"] = .string(nextToken) }
        return JSONResponse.make(.object(body))
    }

    /// `{"attributes_type", "matches": [{"in", "text", "version"?, "path"?}]}`.
    static func json(_ result: SearchResult) -> JSONValue {
        let matches: [JSONValue] = result.matches.map { match in
            var object: JSONObject = ["in": .string(match.foundIn), "text": .string(match.text)]
            if let version = match.version { object["version"] = .number(String(version)) }
            if let path = match.path { object["path"] = .string(path) }
            return .object(object)
        }
        return ["attributes_type": .string(result.attributesType), "matches": .array(matches)]
    }
}
