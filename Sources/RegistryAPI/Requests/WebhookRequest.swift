import Registry

/// The body of creating (every field but `description` and `enabled` required) or updating
/// (any field) a webhook subscription. The URL's form is checked here; its addresses by
/// `WebhookAddressCheck`.
enum WebhookRequest {
    static func settings(_ body: BodyFields, creating: Bool, policy: DestinationPolicy) throws(RegistryError) -> (WebhookSettings, WebhookDestination?) {
        var settings = WebhookSettings()
        var destination: WebhookDestination?
        if let url = try body.string(.url) {
            destination = try WebhookDestination(parsing: url, policy: policy)
            settings.url = url
        } else if creating {
            throw .invalidArgument("url: is required")
        }
        switch try body.value(.events) {
        case nil, .null?:
            if creating { throw .invalidArgument("events: is required (some of \(kindNames))") }
        case .array(let items)?:
            var kinds: [ChangeKind] = []
            for item in items {
                guard case .string(let text) = item, let kind = ChangeKind(exactly: text) else {
                    throw .invalidArgument("events: each must be one of \(kindNames)")
                }
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            guard !kinds.isEmpty else { throw .invalidArgument("events: must name at least one of \(kindNames)") }
            settings.events = kinds
        case let other?:
            throw .invalidArgument("events: must be an array of strings, not \(other.typeName)")
        }
        if let prefix = try body.string(.typePrefix) {
            guard prefix.utf8.count <= WebhookSettings.maxTypePrefixBytes else {
                throw .invalidArgument("type_prefix: must be at most \(WebhookSettings.maxTypePrefixBytes) bytes")
            }
            settings.typePrefix = prefix
        }
        if let description = try body.string(.description) {
            guard description.utf8.count <= WebhookSettings.maxDescriptionBytes else {
                throw .invalidArgument("description: must be at most \(WebhookSettings.maxDescriptionBytes) bytes")
            }
            settings.description = description
        }
        switch try body.value(.enabled) {
        case nil, .null?: break
        case .bool(let flag)?: settings.enabled = flag
        case let other?: throw .invalidArgument("enabled: must be true or false, not \(other.typeName)")
        }
        return (settings, destination)
    }

    static let kindNames = ChangeKind.allCases.map(\.rawValue).joined(separator: ", ")
}
