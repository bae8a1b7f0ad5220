import Foundation
import Glibc

/// One environment variable the binary reads, declared once: its help line, the value used
/// when it is unset, how its text is checked and where it lands in `Configuration`, and how the
/// start-up line shows it. Parsing, `help` and the start-up line all read the same declaration,
/// so they cannot disagree.
struct Setting: Sendable {
    let name: String
    /// The help line without its default.
    let meaning: String
    /// How help states the value used when the variable is unset: `default 16`,
    /// `default: one per core`, `required`.
    let fallback: String
    /// What the variable's text may be; the error for anything else names the variable.
    let accepts: SettingKind
    /// A secret is shown in the start-up line only through its redaction, and may be read
    /// from a file instead (`fileName`).
    let isSecret: Bool
    /// Reads the variable (unset or empty: the fallback) and writes it into the configuration.
    /// Settings are read in table order, so a derived default sees every setting above it.
    let read: @Sendable (_ environment: [String: String], _ into: inout Configuration) throws(ConfigurationError) -> Void
    /// The effective value spelled as the variable would be set; nil when it is left unset.
    /// Tests parse it back to prove every default is a value its setting accepts.
    let spelled: @Sendable (Configuration) -> String?
    /// The effective value as the start-up line shows it, secrets redacted.
    let shown: @Sendable (Configuration) -> String

    /// The `help` line.
    var help: String { "\(meaning) (\(fallback))" }

    /// The variable naming a file that holds a secret setting's value (`NAME_FILE`, as mounted
    /// from a Kubernetes or Docker secret); nil for settings that are not secret. Setting both
    /// is refused.
    var fileName: String? { Self.fileName(of: name, isSecret: isSecret) }
    private static func fileName(of name: String, isSecret: Bool) -> String? { isSecret ? name + "_FILE" : nil }
    /// The largest file a `NAME_FILE` variable may name.
    static let maxFileBytes = 65_536

    /// The start-up line's key: the variable's name without `REGISTRY_`, in lower case.
    var logField: String {
        let prefix = "REGISTRY_"
        return (name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name).lowercased()
    }

    /// - Parameters:
    ///   - check: a rule across settings, run after the value is read (the value's own bounds
    ///     are in `value`).
    ///   - redact: marks the setting secret; the start-up line shows only what this returns.
    ///   - shown: the start-up line's text where it differs from the value's own.
    init<Value: Sendable>(
        _ name: String, _ meaning: String, _ value: SettingValue<Value>, default fallback: Fallback<Value>,
        into field: WritableKeyPath<Configuration, Value> & Sendable,
        check: (@Sendable (_ name: String, Value, Configuration) throws(ConfigurationError) -> Void)? = nil,
        redact: (@Sendable (String) -> String)? = nil,
        shown: (@Sendable (Value) -> String)? = nil
    ) {
        self.name = name
        self.isSecret = redact != nil
        let fileName = Self.fileName(of: name, isSecret: isSecret)
        self.meaning = fileName.map { meaning + "; or \($0): a file holding it" } ?? meaning
        self.accepts = value.kind
        switch fallback {
        case .value(let byDefault): self.fallback = "default \(value.spelled(byDefault) ?? "")"
        case .described(let rule, _): self.fallback = "default: \(rule)"
        case .required: self.fallback = "required"
        }
        self.read = { environment, configuration throws(ConfigurationError) in
            let read: Value
            var text = environment[name].flatMap { $0.isEmpty ? nil : $0 }
            if let fileName, let path = environment[fileName], !path.isEmpty {
                guard text == nil else { throw ConfigurationError(description: "\(name) and \(fileName) are both set: set one of them") }
                text = try Self.contents(of: path, for: fileName)
            }
            if let text {
                read = try value.parse(name, text)
            } else {
                switch fallback {
                case .value(let byDefault): read = byDefault
                case .described(_, let rule): read = rule(configuration)
                case .required: throw ConfigurationError(description: "\(name) is not set")
                }
            }
            try check?(name, read, configuration)
            configuration[keyPath: field] = read
        }
        self.spelled = { value.spelled($0[keyPath: field]) }
        self.shown = { configuration in
            let text = (shown ?? value.shown)(configuration[keyPath: field])
            return redact.map { $0(text) } ?? text
        }
    }
}

extension Setting {
    /// The text of the file `NAME_FILE` names: at most `maxFileBytes`, UTF-8, one trailing
    /// newline (`\n` or `\r\n`) dropped, not empty. Errors name the variable and the path,
    /// never the contents.
    static func contents(of path: String, for variable: String) throws(ConfigurationError) -> String {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConfigurationError(description: "\(variable) names \(path), which cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while bytes.count <= maxFileBytes {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigurationError(description: "\(variable) names \(path), which cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        guard bytes.count <= maxFileBytes else {
            throw ConfigurationError(description: "\(variable) names \(path), which is larger than \(maxFileBytes) bytes")
        }
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(description: "\(variable) names \(path), which is not UTF-8 text")
        }
        guard !text.isEmpty else { throw ConfigurationError(description: "\(variable) names \(path), which is empty") }
        return text
    }
}

/// The value a setting takes when its variable is unset.
enum Fallback<Value: Sendable>: Sendable {
    /// A fixed value; help spells it.
    case value(Value)
    /// Computed from the settings read before this one; help states the rule in words.
    case described(String, @Sendable (Configuration) -> Value)
    /// There is none: unset is a configuration error.
    case required

    /// Unset leaves the field nil, which means what `words` say (help states them).
    static func absent<Wrapped>(_ words: String) -> Self where Value == Wrapped? {
        .described(words) { _ in nil }
    }
}
