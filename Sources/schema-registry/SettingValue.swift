import Foundation
import Registry
import RegistryAPI

/// What a setting's text may be, as its error message states it: the bounds a test tries just
/// outside of for every setting.
enum SettingKind: Sendable, Equatable {
    case integer(ClosedRange<Int>)
    case hostPort
    case logLevel
    /// The base64 of a key of this many bytes; a secret, so its errors never quote the text.
    case key(bytes: Int)
    /// Up to `count` comma-separated keys like `key(bytes:)`; a secret too.
    case keys(bytes: Int, count: Int)
    /// Any text, checked by its user (a folder, a connection string libpq reads).
    case text
}

/// How one kind of value is read from a variable's text and spelled back, so help states a
/// default exactly as an operator would write it.
struct SettingValue<Value: Sendable>: Sendable {
    let kind: SettingKind
    /// The error names the variable and quotes the text.
    let parse: @Sendable (_ name: String, _ text: String) throws(ConfigurationError) -> Value
    /// nil: this value is had by leaving the variable unset.
    let spelled: @Sendable (Value) -> String?
    /// The start-up line's text.
    let shown: @Sendable (Value) -> String
}

extension SettingValue<Int> {
    static func integer(_ range: ClosedRange<Int>) -> Self {
        SettingValue(
            kind: .integer(range),
            parse: { name, text throws(ConfigurationError) in
                guard let number = Int(text), range.contains(number) else {
                    throw ConfigurationError(
                        description: "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
                }
                return number
            },
            spelled: { String($0) }, shown: { String($0) })
    }
}

extension SettingValue<String> {
    static let text = SettingValue(kind: .text, parse: { _, text in text }, spelled: { $0 }, shown: { $0 })
}

extension SettingValue<Logger.Level> {
    static let logLevel = SettingValue(
        kind: .logLevel,
        parse: { name, text throws(ConfigurationError) in
            guard let level = Logger.Level(name: text) else {
                throw ConfigurationError(description: "\(name) must be debug, info, warning or error, got \"\(text)\"")
            }
            return level
        },
        spelled: { $0.name }, shown: { $0.name })
}

extension SettingValue<WebhookSecretKey> {
    /// The base64 of 32 bytes (`openssl rand -base64 32`). It is never spelled back, and its
    /// errors say what is wrong with the text without quoting it.
    static let webhookSecretKey = SettingValue(
        kind: .key(bytes: WebhookSecretKey.byteCount),
        parse: { name, text throws(ConfigurationError) in
            let expected = "\(name) must be the base64 of \(WebhookSecretKey.byteCount) random bytes (openssl rand -base64 \(WebhookSecretKey.byteCount))"
            guard let bytes = Base64.decode(text) else { throw ConfigurationError(description: "\(expected), got text that is not base64") }
            guard let key = WebhookSecretKey(bytes: bytes) else {
                throw ConfigurationError(description: "\(expected), got \(bytes.count) bytes")
            }
            return key
        },
        spelled: { _ in nil }, shown: { "key \($0.id)" })
}

extension SettingValue<[WebhookSecretKey]> {
    /// Comma-separated keys, each the base64 of 32 bytes, at most
    /// `WebhookSecretKeyring.maxOldKeys`. Never spelled back; its errors name the position of
    /// the key that is wrong, never its text.
    static let webhookSecretKeys = SettingValue(
        kind: .keys(bytes: WebhookSecretKey.byteCount, count: WebhookSecretKeyring.maxOldKeys),
        parse: { name, text throws(ConfigurationError) in
            let expected = "\(name) must be at most \(WebhookSecretKeyring.maxOldKeys) comma-separated keys, each the base64 of \(WebhookSecretKey.byteCount) random bytes (openssl rand -base64 \(WebhookSecretKey.byteCount))"
            let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard items.count <= WebhookSecretKeyring.maxOldKeys else { throw ConfigurationError(description: "\(expected), got \(items.count) keys") }
            var keys: [WebhookSecretKey] = []
            for (index, item) in items.enumerated() {
                guard let bytes = Base64.decode(item) else {
                    throw ConfigurationError(description: "\(expected): key \(index + 1) is not base64")
                }
                guard let key = WebhookSecretKey(bytes: bytes) else {
                    throw ConfigurationError(description: "\(expected): key \(index + 1) is \(bytes.count) bytes")
                }
                keys.append(key)
            }
            return keys
        },
        spelled: { _ in nil }, shown: { $0.isEmpty ? "none" : "keys " + $0.map(\.id).joined(separator: ", ") })
}

/// An address to listen on.
struct HostPort: Sendable {
    var host: String
    var port: Int
}

extension SettingValue<HostPort> {
    /// `host:port`, `[v6]:port` or `:port` (all interfaces).
    static let hostPort = SettingValue(
        kind: .hostPort,
        parse: { name, text throws(ConfigurationError) in
            let invalid = ConfigurationError(description: "\(name) must be host:port (e.g. 127.0.0.1:8080), got \"\(text)\"")
            guard let colon = text.lastIndex(of: ":") else { throw invalid }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { throw invalid }
            return HostPort(host: host.isEmpty ? "0.0.0.0" : host, port: port)
        },
        spelled: { "\($0.host):\($0.port)" }, shown: { "\($0.host):\($0.port)" })
}

extension SettingValue {
    /// The same value, or nil while the variable is unset, which the start-up line shows as
    /// `unset` says.
    func unlessUnset(shown unset: String) -> SettingValue<Value?> {
        SettingValue<Value?>(
            kind: kind,
            parse: { name, text throws(ConfigurationError) in try parse(name, text) },
            spelled: { $0.flatMap(spelled) },
            shown: { $0.map(shown) ?? unset })
    }

    /// The same value, shown in the start-up line only through `redact`: a secret whose
    /// setting may be left unset, so that the words for unset are not taken for its value.
    func redacted(by redact: @escaping @Sendable (String) -> String) -> SettingValue {
        SettingValue(kind: kind, parse: parse, spelled: spelled, shown: { redact(shown($0)) })
    }
}
