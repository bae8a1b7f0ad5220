/// What a type is for and who owns it: set by its owners, replaced whole on each change, kept by
/// export and import. Unlike a version's content it may change at any time, so every change is
/// audited and appears in the change feed.
public struct TypeMetadata: Sendable, Equatable {
    public static let maxDescriptionBytes = 4096
    public static let maxOwnerBytes = 256
    public static let maxLinks = 8
    public static let maxLinkNameBytes = 256
    public static let maxLinkURLBytes = 2048

    /// A named link, such as the repository that defines the type.
    public struct Link: Sendable, Equatable {
        public let name: String
        public let url: String
        public init(name: String, url: String) {
            self.name = name
            self.url = url
        }
    }

    /// "" when unset.
    public let description: String
    /// A team or an address, free text; "" when unset.
    public let owner: String
    /// Sorted by key bytes.
    public let labels: JSONObject
    public let links: [Link]
    /// RFC 3339 UTC of the last change; nil when never set.
    public let updated: String?

    public init(description: String = "", owner: String = "", labels: JSONObject = [:], links: [Link] = [], updated: String? = nil) {
        self.description = description
        self.owner = owner
        self.labels = labels
        self.links = links
        self.updated = updated
    }

    public var isEmpty: Bool { description.isEmpty && owner.isEmpty && labels.isEmpty && links.isEmpty }

    /// The metadata a `PUT` body (or an export) describes; each limit past is a 400 naming the
    /// field. Every field is optional: an absent one is cleared, since the body replaces all.
    public init(_ object: JSONObject) throws(RegistryError) {
        description = try MetadataText.parse(object["description"], field: "description", maxBytes: Self.maxDescriptionBytes, multiline: true)
        owner = try MetadataText.parse(object["owner"], field: "owner", maxBytes: Self.maxOwnerBytes, multiline: false)
        labels = try Labels.parse(object["labels"], field: "labels")
        links = try Self.links(object["links"])
        updated = nil
    }

    private static func links(_ value: JSONValue?) throws(RegistryError) -> [Link] {
        switch value {
        case nil, .null?:
            return []
        case .array(let items)?:
            guard items.count <= maxLinks else { throw .invalidArgument("links: at most \(maxLinks) links, got \(items.count)") }
            var links: [Link] = []
            for (index, item) in items.enumerated() {
                let field = "links[\(index)]"
                guard case .object(let link) = item else { throw .invalidArgument("\(field): must be an object with name and url, not \(item.typeName)") }
                let name = try MetadataText.parse(link["name"], field: "\(field).name", maxBytes: maxLinkNameBytes, multiline: false)
                let url = try MetadataText.parse(link["url"], field: "\(field).url", maxBytes: maxLinkURLBytes, multiline: false)
                guard url.hasBytePrefix("https://") || url.hasBytePrefix("http://"), !url.unicodeScalars.contains(" ") else {
                    throw .invalidArgument("\(field).url: must be an http:// or https:// URL without spaces")
                }
                links.append(Link(name: name, url: url))
            }
            return links
        case let other?:
            throw .invalidArgument("links: must be an array of {name, url} objects, not \(other.typeName)")
        }
    }

    /// `{"description"?, "owner"?, "labels"?, "links"?}` with only what is set: what a type's
    /// summary and its export show.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        if !description.isEmpty { object["description"] = .string(description) }
        if !owner.isEmpty { object["owner"] = .string(owner) }
        if !labels.isEmpty { object["labels"] = .object(labels) }
        if !links.isEmpty { object["links"] = linksJSON }
        return object
    }

    /// The links as stored and answered: `[{"name", "url"}]`.
    public var linksJSON: JSONValue {
        .array(links.map { ["name": .string($0.name), "url": .string($0.url)] })
    }
}

/// A version's labels and release notes (for example the app build that ships it); mutable,
/// unlike its content.
public struct VersionMetadata: Sendable, Equatable {
    public static let maxReleaseNotesBytes = 8192

    /// Sorted by key bytes.
    public let labels: JSONObject
    /// "" when unset.
    public let releaseNotes: String

    public init(labels: JSONObject = [:], releaseNotes: String = "") {
        self.labels = labels
        self.releaseNotes = releaseNotes
    }

    public var isEmpty: Bool { labels.isEmpty && releaseNotes.isEmpty }

    /// From a body's `labels` and `release_notes` values; each limit past is a 400 naming the
    /// field (`release_notes` as spelled by `notesField`).
    public init(labels: JSONValue?, releaseNotes: JSONValue?, notesField: String = "release_notes") throws(RegistryError) {
        self.labels = try Labels.parse(labels, field: "labels")
        self.releaseNotes = try MetadataText.parse(releaseNotes, field: notesField, maxBytes: Self.maxReleaseNotesBytes, multiline: true)
    }
}
