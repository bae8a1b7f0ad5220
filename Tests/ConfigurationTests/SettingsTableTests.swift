import Foundation
import Registry
import Testing

@testable import schema_registry

/// Every row of the settings table, checked the same way: parsing, bounds, help and the
/// start-up line all come from the row, so each must hold for all of them.
@Suite struct SettingsTableTests {
    /// The least environment that parses: the one required setting.
    static let minimal = ["DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"]
    static let settings = Configuration.settings

    static func parse(_ extra: [String: String] = [:]) throws(ConfigurationError) -> Configuration {
        try Configuration.fromEnvironment(minimal.merging(extra) { $1 })
    }

    @Test func everyVariableIsDeclaredOnce() {
        let names = Self.settings.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.count == 47, "\(names)")
        #expect(Set(Self.settings.map(\.logField)).count == names.count)
    }

    @Test func everyFieldOfTheConfigurationIsWrittenByASetting() throws {
        let read = Mirror(reflecting: try Self.parse())
        let unread = Mirror(reflecting: Configuration.unread)
        var compared = 0
        for (field, unreadField) in zip(read.children, unread.children) {
            #expect(
                String(describing: field.value) != String(describing: unreadField.value),
                "\(field.label ?? "?") is still \(unreadField.value): no setting writes it")
            compared += 1
        }
        #expect(compared == 47 && compared == unread.children.count)
    }

    @Test func everyDefaultIsAValueTheSettingAccepts() throws {
        let byDefault = try Self.parse()
        var roundTrips = 0
        for setting in Self.settings {
            guard let text = setting.spelled(byDefault) else {
                #expect(setting.fallback.hasPrefix("default: "), "\(setting.name) is unset by default, and help says what that means")
                continue
            }
            let parsed = try Self.parse([setting.name: text])
            #expect(parsed.redacted.map(\.1) == byDefault.redacted.map(\.1), "\(setting.name)=\(text) is its default")
            if setting.fallback.hasPrefix("default ") {
                #expect(setting.fallback == "default \(text)", "help spells \(setting.name)'s default as it is parsed")
            }
            roundTrips += 1
        }
        #expect(roundTrips == 40, "settings with a value by default: \(roundTrips)")
    }

    @Test func everyBoundRefusesTheValueJustOutsideWithOneLineNamingTheVariable() {
        var refused = 0
        var anyText: [String] = []
        for setting in Self.settings {
            let outside: [String]
            switch setting.accepts {
            case .integer(let range): outside = [String(range.lowerBound - 1), String(range.upperBound + 1), "abc", "1.5"]
            case .hostPort: outside = ["nonsense", "127.0.0.1:70000", "127.0.0.1:-1", "host:"]
            case .logLevel: outside = ["loud", "warn"]
            case .key(let bytes):
                #expect(bytes == 32)
                // Not base64; the base64 of 31, 33 and 3 bytes.
                outside = ["not base64!", String(repeating: "A", count: 40) + "AA==", String(repeating: "A", count: 44), "AAAA"]
            case .keys(let bytes, let count):
                #expect(bytes == 32 && count == 8)
                let good = String(repeating: "A", count: 43) + "="
                // One more key than allowed; a bad second key; an empty one; a key of 31 bytes.
                outside = [
                    Array(repeating: good, count: count + 1).joined(separator: ","), good + ",not base64!", good + ",",
                    String(repeating: "A", count: 40) + "AA==",
                ]
            case .text:
                anyText.append(setting.name)
                continue
            }
            for text in outside {
                #expect(throws: ConfigurationError.self, "\(setting.name)=\(text)") {
                    try Self.parse([setting.name: text])
                }
                do {
                    _ = try Self.parse([setting.name: text])
                } catch {
                    #expect(error.description.hasPrefix("\(setting.name) must be "), "\(error)")
                    if setting.isSecret {
                        #expect(!error.description.contains(text), "a secret's bad value is never quoted: \(error)")
                    } else {
                        #expect(error.description.contains("\"\(text)\""), "the bad value is quoted: \(error)")
                    }
                    #expect(!error.description.contains("\n"), "\(error)")
                    refused += 1
                }
            }
        }
        #expect(refused == 39 * 4 + 2 * 4 + 2 + 4 + 4, "refused: \(refused)")
        #expect(anyText == ["DATABASE_URL", "REGISTRY_READ_DATABASE_URL", "REGISTRY_MIGRATIONS_DIR"], "settings that take any text: \(anyText)")
    }

    @Test func theRequiredSettingUnsetIsOneLineNamingIt() {
        #expect(throws: ConfigurationError.self) { try Configuration.fromEnvironment([:]) }
        do {
            _ = try Configuration.fromEnvironment(["DATABASE_URL": ""])
        } catch {
            #expect(error.description == "DATABASE_URL is not set")
        }
        #expect(Self.settings.filter { $0.fallback == "required" }.map(\.name) == ["DATABASE_URL"])
    }

    @Test func helpListsEverySettingWithItsMeaningAndDefault() {
        let lines = Help.text.split(separator: "\n").map(String.init)
        var listed = 0
        for setting in Self.settings {
            let line = lines.first { $0.hasPrefix("  \(setting.name) ") }
            #expect(line?.hasSuffix("  \(setting.meaning) (\(setting.fallback))") == true, "\(setting.name): \(line ?? "missing")")
            if line != nil { listed += 1 }
        }
        #expect(listed == Self.settings.count)
    }

    @Test func theStartupLineListsEverySettingInTableOrder() throws {
        let fields = try Self.parse().redacted
        #expect(fields.map(\.0) == Self.settings.map(\.logField))
        // The keys operators' log queries already use.
        for key in [
            "listen", "database_url", "http_workers", "http_event_loops", "db_pool_size", "db_loop_sessions",
            "max_body_bytes", "connection_timeout_seconds", "max_connections", "max_connections_per_address",
            "request_head_timeout_seconds", "log_level", "admin_listen", "shutdown_grace_seconds", "cache_bytes",
            "auth_cache_seconds", "audit_retention_days", "compatibility_max_versions", "compatibility_max_problems",
            "max_heavy_requests", "max_waiting_requests", "max_waiting_per_address",
        ] {
            #expect(fields.contains { $0.0 == key }, "\(key)")
        }
        let shown = Dictionary(uniqueKeysWithValues: fields)
        #expect(shown["listen"] == "127.0.0.1:8080")
        #expect(shown["http_event_loops"] == "one per core")
        #expect(shown["admin_listen"] == "same as listen")
        #expect(shown["audit_retention_days"] == "for ever")
        #expect(shown["migrations_dir"] == "found beside the binary")
        #expect(shown["read_database_url"] == "DATABASE_URL's hosts when it names several")
        #expect(shown["webhook_secret_key"] == "unset: secrets stored as issued")
        #expect(shown["max_waiting_per_address"] == "64")
        #expect(try Dictionary(uniqueKeysWithValues: Self.parse(["REGISTRY_MAX_WAITING_PER_ADDRESS": "0"]).redacted)[
            "max_waiting_per_address"] == "no limit of its own")
    }

    /// Each secret setting with values that hide a secret in every spelling it accepts.
    static let secretSamples: [String: [String]] = [
        "DATABASE_URL": [
            "postgresql://postgres:s3cret@127.0.0.1:5432/registry",
            "postgresql://postgres@127.0.0.1:5432/registry?password=s3cret",
            "host=127.0.0.1 dbname=registry user=postgres password=s3cret",
            "host=127.0.0.1 dbname=registry user=postgres password = s3cret",
            "host=127.0.0.1 dbname=registry user=postgres password='a s3cret'",
            "postgresql://postgres:s3cret@[not a valid uri",
        ],
        "REGISTRY_READ_DATABASE_URL": [
            "postgresql://postgres:s3cret@127.0.0.1:5432,127.0.0.1:5433/registry?target_session_attrs=prefer-standby",
            "host=127.0.0.1,127.0.0.2 dbname=registry user=postgres password=s3cret",
            "postgresql://postgres:s3cret@[not a valid uri",
        ],
        // Base64 of 32 bytes with the marker inside.
        "REGISTRY_WEBHOOK_SECRET_KEY": ["s3cret" + String(repeating: "A", count: 37) + "=", "AAAAs3cret" + String(repeating: "A", count: 33) + "="],
        "REGISTRY_WEBHOOK_SECRET_OLD_KEYS": [
            "s3cret" + String(repeating: "A", count: 37) + "=", "AAAAs3cret" + String(repeating: "A", count: 33) + "=,s3cret" + String(repeating: "B", count: 36) + "A=",
        ],
    ]

    @Test func aSecretNeverAppearsInTheStartupLine() throws {
        let secrets = Self.settings.filter(\.isSecret)
        #expect(secrets.map(\.name) == ["DATABASE_URL", "REGISTRY_READ_DATABASE_URL", "REGISTRY_WEBHOOK_SECRET_KEY", "REGISTRY_WEBHOOK_SECRET_OLD_KEYS"])
        var checked = 0
        for setting in secrets {
            let samples = try #require(Self.secretSamples[setting.name], "a sample secret for \(setting.name)")
            for sample in samples {
                // Old keys need a current key.
                let configuration = try Self.parse([setting.name: sample].merging(
                    setting.name == "REGISTRY_WEBHOOK_SECRET_OLD_KEYS" ? ["REGISTRY_WEBHOOK_SECRET_KEY": Self.currentKey] : [:]) { $1 })
                let line = configuration.redacted.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
                #expect(!line.contains("s3cret"), "\(sample) shows as \(line)")
                #expect(configuration.redacted.contains { $0.0 == setting.logField && !$0.1.isEmpty })
                checked += 1
            }
        }
        #expect(checked == 13)
    }

    /// The webhook secret key: unset by default (secrets stored as issued), else the base64 of
    /// 32 bytes, shown in the start-up line by its id only.
    @Test func theWebhookSecretKeyIsShownByItsIDOnly() throws {
        let unset = try Dictionary(uniqueKeysWithValues: Self.parse().redacted)
        #expect(unset["webhook_secret_key"] == "unset: secrets stored as issued")
        #expect(try Self.parse().webhookSecretKey == nil)
        let text = "s3cret" + String(repeating: "A", count: 37) + "="
        let configuration = try Self.parse(["REGISTRY_WEBHOOK_SECRET_KEY": text])
        let key = try #require(configuration.webhookSecretKey)
        #expect(Dictionary(uniqueKeysWithValues: configuration.redacted)["webhook_secret_key"] == "key \(key.id)")
        #expect(!"\(configuration)".contains(text) && !String(reflecting: configuration).contains("s3cret"))
    }

    /// A current key, for settings that need one.
    static let currentKey = Base64.encode((0..<32).map { UInt8($0 * 7 & 0xFF) })

    /// Old keys: shown by ids only, refused without a current key, with the position of a bad
    /// key and never its text; a repeat of the current key is dropped from the keyring.
    @Test func oldWebhookSecretKeysAreShownByIDAndNeedACurrentKey() throws {
        #expect(try Self.parse().webhookSecretOldKeys.isEmpty)
        #expect(try Dictionary(uniqueKeysWithValues: Self.parse().redacted)["webhook_secret_old_keys"] == "none")
        let old = [Base64.encode([UInt8](repeating: 1, count: 32)), Base64.encode([UInt8](repeating: 2, count: 32))]
        let configuration = try Self.parse([
            "REGISTRY_WEBHOOK_SECRET_KEY": Self.currentKey, "REGISTRY_WEBHOOK_SECRET_OLD_KEYS": old.joined(separator: ", ") + "," + Self.currentKey,
        ])
        let keyring = try #require(configuration.webhookSecretKeyring)
        #expect(keyring.old.map(\.id) == old.compactMap { WebhookSecretKey(base64: $0)?.id })
        #expect(Dictionary(uniqueKeysWithValues: configuration.redacted)["webhook_secret_old_keys"]
            == "keys " + configuration.webhookSecretOldKeys.map(\.id).joined(separator: ", "))
        #expect(!"\(configuration)".contains(old[0]) && !String(reflecting: configuration).contains(old[1]))

        var refused: [String] = []
        for (environment, expected) in [
            (["REGISTRY_WEBHOOK_SECRET_OLD_KEYS": old[0]], "REGISTRY_WEBHOOK_SECRET_OLD_KEYS needs REGISTRY_WEBHOOK_SECRET_KEY"),
            (["REGISTRY_WEBHOOK_SECRET_KEY": Self.currentKey, "REGISTRY_WEBHOOK_SECRET_OLD_KEYS": old[0] + ",AAAA"], ": key 2 is 3 bytes"),
            (["REGISTRY_WEBHOOK_SECRET_KEY": Self.currentKey, "REGISTRY_WEBHOOK_SECRET_OLD_KEYS": "x" + old[0]], ": key 1 is not base64"),
        ] {
            do {
                _ = try Self.parse(environment)
                Issue.record("\(environment) was accepted")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
                #expect(!error.description.contains(old[0]) && !error.description.contains(Self.currentKey), "\(error)")
                refused.append(error.description)
            }
        }
        #expect(refused.count == 3)
    }

    /// A file the test writes and removes.
    final class TemporaryFile {
        let path: String
        init(_ contents: [UInt8]) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(contents)))
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Every secret setting, and only those, may be read from the file `NAME_FILE` names; help
    /// says so, which is also how the deploy-artifact checker learns the name.
    @Test func everySecretSettingAndOnlyThoseHaveAFileForm() {
        for setting in Self.settings {
            #expect(setting.fileName == (setting.isSecret ? setting.name + "_FILE" : nil), "\(setting.name)")
            #expect(setting.help.contains("\(setting.name)_FILE") == setting.isSecret, "\(setting.name): \(setting.help)")
        }
        #expect(Self.settings.compactMap(\.fileName) == [
            "DATABASE_URL_FILE", "REGISTRY_READ_DATABASE_URL_FILE", "REGISTRY_WEBHOOK_SECRET_KEY_FILE", "REGISTRY_WEBHOOK_SECRET_OLD_KEYS_FILE",
        ])
    }

    /// The file's text is the value, one trailing newline dropped; the start-up line shows it
    /// as the variable's value would be shown.
    @Test func aSecretIsReadFromTheFileItsFileVariableNames() throws {
        let key = try TemporaryFile(Array((Self.currentKey + "\n").utf8))
        let old = Base64.encode([UInt8](repeating: 1, count: 32))
        let oldKeys = try TemporaryFile(Array((old + "\r\n").utf8))
        let url = try TemporaryFile(Array("postgresql://postgres:s3cret@127.0.0.1:1/from-file".utf8))
        let configuration = try Configuration.fromEnvironment([
            "DATABASE_URL_FILE": url.path, "REGISTRY_WEBHOOK_SECRET_KEY_FILE": key.path, "REGISTRY_WEBHOOK_SECRET_OLD_KEYS_FILE": oldKeys.path,
        ])
        #expect(configuration.databaseURL == "postgresql://postgres:s3cret@127.0.0.1:1/from-file")
        #expect(configuration.webhookSecretKey?.id == WebhookSecretKey(base64: Self.currentKey)?.id)
        #expect(configuration.webhookSecretOldKeys.map(\.id) == [WebhookSecretKey(base64: old)?.id].compactMap { $0 })
        let line = configuration.redacted.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        #expect(!line.contains("s3cret") && !line.contains(Self.currentKey) && !line.contains(old), "\(line)")
        // A setting that is not secret has no file form: its _FILE variable is not read.
        #expect(try Self.parse(["REGISTRY_LISTEN_FILE": key.path]).listen.port == 8080)
    }

    /// A missing, empty, oversize or non-UTF-8 file, or both forms set, stop start-up with one
    /// line naming the variable and the path, never the contents.
    @Test func aFileThatCannotBeUsedIsOneLineNamingTheVariableAndPath() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("settings-missing-\(UUID().uuidString)").path
        let empty = try TemporaryFile([])
        let newlineOnly = try TemporaryFile([UInt8(ascii: "\n")])
        let oversize = try TemporaryFile(Array(repeating: UInt8(ascii: "A"), count: 65_537))
        let largest = try TemporaryFile(Array(repeating: UInt8(ascii: "A"), count: 65_536))
        let notText = try TemporaryFile([0xFF, 0xFE, 0x41])
        let key = try TemporaryFile(Array(Self.currentKey.utf8))
        let variable = "REGISTRY_WEBHOOK_SECRET_KEY_FILE"
        var refused = 0
        for (environment, expected) in [
            ([variable: missing], "\(variable) names \(missing), which cannot be read: No such file or directory"),
            ([variable: empty.path], "\(variable) names \(empty.path), which is empty"),
            ([variable: newlineOnly.path], "\(variable) names \(newlineOnly.path), which is empty"),
            ([variable: oversize.path], "\(variable) names \(oversize.path), which is larger than 65536 bytes"),
            ([variable: notText.path], "\(variable) names \(notText.path), which is not UTF-8 text"),
            // At the bound the file is read, and its text is refused as a key, unquoted.
            ([variable: largest.path], "REGISTRY_WEBHOOK_SECRET_KEY must be the base64 of 32 random bytes (openssl rand -base64 32), got 49152 bytes"),
            (
                [variable: key.path, "REGISTRY_WEBHOOK_SECRET_KEY": Self.currentKey],
                "REGISTRY_WEBHOOK_SECRET_KEY and REGISTRY_WEBHOOK_SECRET_KEY_FILE are both set: set one of them"
            ),
            // An empty variable is unset.
            (["DATABASE_URL": "", "DATABASE_URL_FILE": missing], "DATABASE_URL_FILE names \(missing), which cannot be read: No such file or directory"),
        ] {
            do {
                _ = try Configuration.fromEnvironment(Self.minimal.merging(environment) { $1 })
                Issue.record("\(environment) was accepted")
            } catch {
                #expect(error.description == expected)
                #expect(!error.description.contains(Self.currentKey) && !error.description.contains("AAAAAAAA") && !error.description.contains("\n"))
                refused += 1
            }
        }
        #expect(refused == 8)
    }
}
