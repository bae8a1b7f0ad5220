/// Everything of one application that moves between environments (staging → production):
/// each type's live versions (text byte for byte, creation time, publisher), its retired
/// (deleted) numbers and its version counter, each version's state, labels, release notes and
/// stored warnings, each type's `latest` pin and metadata, the compatibility policies, and the
/// webhook subscriptions without their secrets or delivery state. Tokens, accounts, idempotency
/// keys and webhook secrets stay behind.
public struct ApplicationExport: Sendable, Equatable {
    public static let format = "live-activity-schema-registry-export"
    public static let formatVersion = 1

    public struct LiveVersion: Sendable, Equatable {
        public let version: Int32
        public let jsonSchema: String
        /// RFC 3339 UTC with microseconds.
        public let created: String
        /// Who published it (a token's name); nil when not recorded.
        public let createdBy: String?
        /// Its state, with times in the export's form (RFC 3339 UTC with microseconds); a file
        /// without one means active.
        public let state: ExportedState
        /// Labels and release notes; empty when unset.
        public let metadata: VersionMetadata
        /// The warnings its publish answered.
        public let warnings: [JSONValue]
        public init(
            version: Int32, jsonSchema: String, created: String, createdBy: String?, state: ExportedState = .active,
            metadata: VersionMetadata = VersionMetadata(), warnings: [JSONValue] = []
        ) {
            self.metadata = metadata
            self.warnings = warnings
            self.version = version
            self.jsonSchema = jsonSchema
            self.created = created
            self.createdBy = createdBy
            self.state = state
        }
    }

    /// A version's state as exported: what the database stores, nothing derived.
    public enum ExportedState: Sendable, Equatable {
        case active
        case deprecated(message: String, sunset: String?, at: String, by: String)
        case disabled(reason: String, at: String, by: String)

        public var name: String {
            switch self {
            case .active: "active"
            case .deprecated: "deprecated"
            case .disabled: "disabled"
            }
        }
    }

    public struct TypeHistory: Sendable, Equatable {
        public let attributesType: String
        /// The highest number ever handed out; the next publish gets one more.
        public let lastVersion: Int32
        public let versions: [LiveVersion]
        public let retired: [Int32]
        /// The version `latest` is pinned to; nil when none is.
        public let latestPin: Int32?
        /// Description, owner, labels and links; empty when never set.
        public let metadata: TypeMetadata
        public init(
            attributesType: String, lastVersion: Int32, versions: [LiveVersion], retired: [Int32], latestPin: Int32? = nil,
            metadata: TypeMetadata = TypeMetadata()
        ) {
            self.metadata = metadata
            self.attributesType = attributesType
            self.lastVersion = lastVersion
            self.versions = versions
            self.retired = retired
            self.latestPin = latestPin
        }
    }

    public struct Policy: Sendable, Equatable {
        /// Empty for the application's own policy.
        public let attributesType: String
        public let mode: String
        public let enforce: String
        public let oldestSupportedVersion: Int32
        public init(attributesType: String, mode: String, enforce: String, oldestSupportedVersion: Int32) {
            self.attributesType = attributesType
            self.mode = mode
            self.enforce = enforce
            self.oldestSupportedVersion = oldestSupportedVersion
        }
    }

    /// A webhook subscription as it moves: where and what, never its secret.
    public struct Webhook: Sendable, Equatable {
        public let url: String
        public let events: [ChangeKind]
        public let typePrefix: String
        public let description: String

        public init(url: String, events: [ChangeKind], typePrefix: String, description: String) {
            self.url = url
            self.events = events
            self.typePrefix = typePrefix
            self.description = description
        }
    }

    /// The code of the application exported (the import names its own target).
    public let application: String
    public let types: [TypeHistory]
    public let policies: [Policy]
    /// Absent from documents written before webhooks existed: read as none.
    public let webhooks: [Webhook]

    public init(application: String, types: [TypeHistory], policies: [Policy], webhooks: [Webhook] = []) {
        self.application = application
        self.types = types
        self.policies = policies
        self.webhooks = webhooks
    }
}

// MARK: - JSON

extension ApplicationExport {
    public var json: JSONValue {
        .object([
            "format": .string(Self.format),
            "format_version": .number(String(Self.formatVersion)),
            "application": .string(application),
            "types": .array(types.map { type in
                var object: JSONObject = [
                    "attributes_type": .string(type.attributesType),
                    "last_version": .number(String(type.lastVersion)),
                    "versions": .array(type.versions.map { version in
                        var object: JSONObject = [
                            "version": .number(String(version.version)),
                            "json_schema": .string(version.jsonSchema),
                            "created": .string(version.created),
                            "created_by": version.createdBy.map(JSONValue.string) ?? .null,
                            "state": .string(version.state.name),
                            "labels": .object(version.metadata.labels),
                            "release_notes": .string(version.metadata.releaseNotes),
                            "warnings": .array(version.warnings),
                        ]
                        switch version.state {
                        case .active: break
                        case .deprecated(let message, let sunset, let at, let by):
                            object["deprecation"] = [
                                "message": .string(message), "sunset": sunset.map(JSONValue.string) ?? .null, "at": .string(at),
                                "by": .string(by),
                            ]
                        case .disabled(let reason, let at, let by):
                            object["disabled"] = ["reason": .string(reason), "at": .string(at), "by": .string(by)]
                        }
                        return .object(object)
                    }),
                    "retired": .array(type.retired.map { .number(String($0)) }),
                    "metadata": .object(type.metadata.jsonObject),
                ]
                if let pin = type.latestPin { object["latest_pin"] = .number(String(pin)) }
                return .object(object)
            }),
            "policies": .array(policies.map { policy in
                .object([
                    "attributes_type": .string(policy.attributesType),
                    "mode": .string(policy.mode),
                    "enforce": .string(policy.enforce),
                    "oldest_supported_version": .number(String(policy.oldestSupportedVersion)),
                ])
            }),
            "webhooks": .array(webhooks.map { webhook in
                .object([
                    "url": .string(webhook.url),
                    "events": .array(webhook.events.map { .string($0.rawValue) }),
                    "type_prefix": .string(webhook.typePrefix),
                    "description": .string(webhook.description),
                ])
            }),
        ])
    }

    /// Reads an export document, checking its shape, that its numbers are consistent (each
    /// number once per type, none above `last_version`), and every field it writes with the
    /// rule of the route that writes that field (`AttributesTypeName`, `TokenTerms.validateName`
    /// for `created_by`, `ApplicationCode`, the policy's mode and enforcement); errors name the
    /// path.
    public init(json: JSONValue) throws(RegistryError) {
        guard let root = json.objectValue else { throw .invalidArgument("export: must be a JSON object") }
        guard root["format"]?.stringValue == Self.format else {
            throw .invalidArgument("format: must be \"\(Self.format)\"")
        }
        guard root["format_version"]?.integerLexemeValue == Self.formatVersion else {
            throw .invalidArgument("format_version: must be \(Self.formatVersion)")
        }
        application = try Self.string(root["application"], "application")
        try ApplicationCode.validate(application, field: "application")
        var types: [TypeHistory] = []
        var seenTypes = Set<[UInt8]>()
        for (index, item) in try Self.array(root["types"], "types").enumerated() {
            let path = "types[\(index)]"
            guard let object = item.objectValue else { throw .invalidArgument("\(path): must be an object") }
            let name = try Self.string(object["attributes_type"], "\(path).attributes_type")
            try AttributesTypeName.validate(name, field: "\(path).attributes_type")
            guard seenTypes.insert(Array(name.utf8)).inserted else { throw .invalidArgument("\(path).attributes_type: listed twice") }
            let last = try Self.number(object["last_version"], "\(path).last_version")
            var numbers = Set<Int32>()
            var versions: [LiveVersion] = []
            for (position, entry) in try Self.array(object["versions"], "\(path).versions").enumerated() {
                let at = "\(path).versions[\(position)]"
                guard let version = entry.objectValue else { throw .invalidArgument("\(at): must be an object") }
                let number = try Self.number(version["version"], "\(at).version")
                guard number <= last, numbers.insert(number).inserted else {
                    throw .invalidArgument("\(at).version: listed twice or above last_version")
                }
                let created = try Self.string(version["created"], "\(at).created")
                guard Self.isUTCTime(created), Self.isPossibleTime(created) else {
                    throw .invalidArgument("\(at).created: must be an RFC 3339 UTC time such as 2026-09-01T10:00:00.000000Z")
                }
                let createdBy: String?
                switch version["created_by"] {
                case nil, .null?: createdBy = nil
                case .string(let by)?:
                    try TokenTerms.validateName(by, field: "\(at).created_by")
                    createdBy = by
                default: throw .invalidArgument("\(at).created_by: must be a string or null")
                }
                versions.append(
                    LiveVersion(
                        version: number, jsonSchema: try Self.string(version["json_schema"], "\(at).json_schema"),
                        created: created, createdBy: createdBy, state: try Self.state(version, at),
                        metadata: try VersionMetadata(labels: version["labels"], releaseNotes: version["release_notes"], notesField: "\(at).release_notes"),
                        warnings: try Self.warnings(version["warnings"], "\(at).warnings")))
            }
            var retired: [Int32] = []
            for (position, entry) in try Self.array(object["retired"], "\(path).retired").enumerated() {
                let number = try Self.number(entry, "\(path).retired[\(position)]")
                guard number <= last, numbers.insert(number).inserted else {
                    throw .invalidArgument("\(path).retired[\(position)]: listed twice or above last_version")
                }
                retired.append(number)
            }
            var latestPin: Int32?
            if let pin = object["latest_pin"], !pin.isNull {
                let number = try Self.number(pin, "\(path).latest_pin")
                guard let pinned = versions.first(where: { $0.version == number }), pinned.state.name != "disabled" else {
                    throw .invalidArgument("\(path).latest_pin: must name a listed version that is not disabled")
                }
                latestPin = number
            }
            let metadata: TypeMetadata
            switch object["metadata"] {
            case nil, .null?: metadata = TypeMetadata()
            case .object(let fields)?: metadata = try TypeMetadata(fields)
            default: throw .invalidArgument("\(path).metadata: must be an object")
            }
            types.append(TypeHistory(attributesType: name, lastVersion: last, versions: versions, retired: retired, latestPin: latestPin, metadata: metadata))
        }
        var policies: [Policy] = []
        for (index, item) in try Self.array(root["policies"], "policies").enumerated() {
            let path = "policies[\(index)]"
            guard let object = item.objectValue else { throw .invalidArgument("\(path): must be an object") }
            let mode = try Self.string(object["mode"], "\(path).mode")
            guard CompatibilityPolicy.Mode(exactly: mode) != nil else {
                throw .invalidArgument("\(path).mode: must be none, backward or backward_transitive")
            }
            let enforce = try Self.string(object["enforce"], "\(path).enforce")
            guard CompatibilityPolicy.Enforcement(exactly: enforce) != nil else {
                throw .invalidArgument("\(path).enforce: must be warn or reject")
            }
            // Empty is the application's own policy; any other name is a type's, as on its route.
            let attributesType = try Self.string(object["attributes_type"], "\(path).attributes_type")
            if !attributesType.isEmpty { try AttributesTypeName.validate(attributesType, field: "\(path).attributes_type") }
            policies.append(
                Policy(
                    attributesType: attributesType, mode: mode, enforce: enforce,
                    oldestSupportedVersion: try Self.number(object["oldest_supported_version"], "\(path).oldest_supported_version")))
        }
        self.types = types
        self.policies = policies
        webhooks = try Self.webhooks(root["webhooks"])
    }

    /// The `webhooks` of a document: a URL of the form webhooks take (its addresses are checked
    /// when delivering), the events, and the bounded prefix and description. Never inlined:
    /// `init(json:)`'s frame is already large, and tests call it on the cooperative pool's
    /// small stacks.
    @inline(never)
    private static func webhooks(_ value: JSONValue?) throws(RegistryError) -> [Webhook] {
        guard let value, value != .null else { return [] }
        var webhooks: [Webhook] = []
        for (index, item) in try array(value, "webhooks").enumerated() {
            let path = "webhooks[\(index)]"
            guard let object = item.objectValue else { throw .invalidArgument("\(path): must be an object") }
            let url = try string(object["url"], "\(path).url")
            do {
                _ = try WebhookDestination(parsing: url, policy: DestinationPolicy(allowPrivate: true, allowHTTP: true))
            } catch {
                throw .invalidArgument("\(path).\(error.message)")
            }
            var events: [ChangeKind] = []
            for event in try array(object["events"], "\(path).events") {
                guard let text = event.stringValue, let kind = ChangeKind(exactly: text), !events.contains(kind) else {
                    throw .invalidArgument("\(path).events: each must be a distinct one of " + ChangeKind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                events.append(kind)
            }
            guard !events.isEmpty else { throw .invalidArgument("\(path).events: must name at least one event") }
            let prefix = try string(object["type_prefix"], "\(path).type_prefix")
            let description = try string(object["description"], "\(path).description")
            guard prefix.utf8.count <= WebhookSettings.maxTypePrefixBytes, !prefix.utf8.contains(0),
                description.utf8.count <= WebhookSettings.maxDescriptionBytes, !description.utf8.contains(0)
            else { throw .invalidArgument("\(path): type_prefix or description too long or holding NUL") }
            webhooks.append(Webhook(url: url, events: events, typePrefix: prefix, description: description))
        }
        return webhooks
    }

    /// `YYYY-MM-DDTHH:MM:SS` with up to six fraction digits and `Z`: the form exports write and
    /// PostgreSQL reads back without loss. Checked by bytes, so the domain module needs no regex.
    static func isUTCTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let shape = Array("0000-00-00T00:00:00".utf8)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard bytes.count > shape.count, bytes.last == UInt8(ascii: "Z") else { return false }
        for (byte, expected) in zip(bytes, shape) {
            guard expected == UInt8(ascii: "0") ? isDigit(byte) : byte == expected else { return false }
        }
        let fraction = bytes[shape.count..<(bytes.count - 1)]
        if fraction.isEmpty { return true }
        return fraction.first == UInt8(ascii: ".") && (2...7).contains(fraction.count) && fraction.dropFirst().allSatisfy(isDigit)
    }

    /// A date and time that exists (no February 30) from year 1 on, as PostgreSQL stores it.
    static func isPossibleTime(_ text: String) -> Bool {
        guard let year = Int(text.prefix(4)), year >= 1 else { return false }
        return SwiftDateValue.number(fromRFC3339: text) != nil
    }

    /// A version's `state` (absent: active) and its details, checked with the rules of the
    /// state routes; times as `created`'s.
    private static func state(_ version: JSONObject, _ at: String) throws(RegistryError) -> ExportedState {
        let name = try version["state"].map { value throws(RegistryError) in try Self.string(value, "\(at).state") } ?? "active"
        func time(_ value: JSONValue?, _ path: String) throws(RegistryError) -> String {
            let text = try Self.string(value, path)
            guard isUTCTime(text), isPossibleTime(text) else { throw .invalidArgument("\(path): must be an RFC 3339 UTC time") }
            return text
        }
        func by(_ value: JSONValue?, _ path: String) throws(RegistryError) -> String {
            let text = try Self.string(value, path)
            try TokenTerms.validateName(text, field: path)
            return text
        }
        switch name {
        case "active":
            return .active
        case "deprecated":
            let path = "\(at).deprecation"
            guard let details = version["deprecation"]?.objectValue else { throw .invalidArgument("\(path): must be an object") }
            let message = try Self.string(details["message"], "\(path).message")
            try StateChange.validateText(message, field: "\(path).message")
            var sunset: String?
            if let value = details["sunset"], !value.isNull {
                let text = try time(value, "\(path).sunset")
                guard let year = Int(text.prefix(4)), year >= 1970 else { throw .invalidArgument("\(path).sunset: must be from 1970 on") }
                sunset = text
            }
            return .deprecated(
                message: message, sunset: sunset, at: try time(details["at"], "\(path).at"), by: try by(details["by"], "\(path).by"))
        case "disabled":
            let path = "\(at).disabled"
            guard let details = version["disabled"]?.objectValue else { throw .invalidArgument("\(path): must be an object") }
            let reason = try Self.string(details["reason"], "\(path).reason")
            try StateChange.validateText(reason, field: "\(path).reason")
            return .disabled(reason: reason, at: try time(details["at"], "\(path).at"), by: try by(details["by"], "\(path).by"))
        default:
            throw .invalidArgument("\(at).state: must be active, deprecated or disabled")
        }
    }

    private static func string(_ value: JSONValue?, _ path: String) throws(RegistryError) -> String {
        guard let text = value?.stringValue else { throw .invalidArgument("\(path): must be a string") }
        return text
    }

    /// Stored warnings: an array of objects; absent is none.
    private static func warnings(_ value: JSONValue?, _ path: String) throws(RegistryError) -> [JSONValue] {
        guard let value, !value.isNull else { return [] }
        guard let items = value.arrayValue, items.allSatisfy({ $0.objectValue != nil }) else {
            throw .invalidArgument("\(path): must be an array of objects")
        }
        return items
    }

    private static func array(_ value: JSONValue?, _ path: String) throws(RegistryError) -> [JSONValue] {
        guard let items = value?.arrayValue else { throw .invalidArgument("\(path): must be an array") }
        return items
    }

    private static func number(_ value: JSONValue?, _ path: String) throws(RegistryError) -> Int32 {
        guard let number = value?.integerLexemeValue, (1...Int(Int32.max)).contains(number) else {
            throw .invalidArgument("\(path): must be an integer from 1 to 2147483647")
        }
        return Int32(number)
    }
}
