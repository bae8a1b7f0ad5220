import HTTPServer
import Registry

/// What every answer about a version says of its state: a deprecated version's `Deprecation`
/// (RFC 9745) and `Sunset` (RFC 8594) headers and its `deprecated_version` warning, and the 404
/// that refuses a disabled one.
enum VersionNotice {
    /// `Deprecation: @<unix seconds>` and, with a sunset, `Sunset: <HTTP-date>`; none for an
    /// active version.
    static func headers(_ state: VersionState) -> [(name: String, value: String)] {
        guard let deprecation = state.deprecation else { return [] }
        var headers = [(name: "Deprecation", value: "@\(deprecation.atUnixSeconds)")]
        if let sunset = deprecation.sunsetHTTPDate { headers.append((name: "Sunset", value: sunset)) }
        return headers
    }

    /// `response` with `schema`'s notice headers.
    static func noting(_ schema: SchemaVersion, in response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers += headers(schema.state)
        return response
    }

    /// The warning forms, `:check` and `:preview` add for a deprecated version, naming its
    /// message and sunset; nil for an active one.
    static func warning(_ schema: SchemaVersion) -> JSONValue? {
        guard let deprecation = schema.state.deprecation else { return nil }
        let until = deprecation.sunset.map { "; sunset \($0)" } ?? ""
        return [
            "code": "deprecated_version",
            "path": "version",
            "message": .string("version \(schema.version) of \(ClientText.quoted(schema.attributesType)) is deprecated\(until): \(deprecation.message)"),
        ]
    }

    /// `answer` (a JSON object) with the version's warning appended to its `warnings`.
    static func warned(_ answer: JSONValue, about schema: SchemaVersion) -> JSONValue {
        guard let warning = warning(schema), case .object(var fields) = answer else { return answer }
        fields["warnings"] = .array((fields["warnings"]?.arrayValue ?? []) + [warning])
        return .object(fields)
    }

    /// The 404 of a disabled version: who disabled it and why only for an admin token, since
    /// the reason may say more than a reader should learn.
    static func disabled(_ schema: SchemaVersion, _ disablement: Disablement, for call: Call) -> RegistryError {
        var message = "version \(schema.version) of \(ClientText.quoted(schema.attributesType)) is disabled"
        if call.token?.scope == .admin { message += " by \(disablement.by): \(disablement.reason)" }
        return .notFound(message)
    }

    /// What the `ETag` of a version's representation adds for its state: nothing when active
    /// (tags of active versions are what they always were), else every detail the body shows.
    static func tagStamp(_ state: VersionState) -> String {
        guard let deprecation = state.deprecation else { return "" }
        return "\u{0}deprecated\u{0}\(deprecation.at)\u{0}\(deprecation.sunset ?? "")\u{0}\(deprecation.message)\u{0}\(deprecation.by)"
    }
}
