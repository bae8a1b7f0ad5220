import Foundation
import RegistryAPI

/// Typed reads of environment variables, each failure naming the variable and the bad value.
struct EnvironmentReader {
    let environment: [String: String]

    func optional(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    func required(_ name: String) throws(ConfigurationError) -> String {
        guard let value = optional(name) else { throw ConfigurationError(description: "\(name) is not set") }
        return value
    }

    func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let text = optional(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ConfigurationError(
                description: "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return number
    }

    func logLevel(_ name: String) throws(ConfigurationError) -> Logger.Level {
        guard let text = optional(name) else { return .info }
        guard let level = Logger.Level(name: text) else {
            throw ConfigurationError(description: "\(name) must be debug, info, warning or error, got \"\(text)\"")
        }
        return level
    }

    /// `host:port`, `[v6]:port` or `:port` (all interfaces).
    func hostPort(_ name: String, default value: (String, Int)) throws(ConfigurationError) -> (String, Int) {
        guard let text = optional(name) else { return value }
        let invalid = ConfigurationError(description: "\(name) must be host:port (e.g. 127.0.0.1:8080), got \"\(text)\"")
        guard let colon = text.lastIndex(of: ":") else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { throw invalid }
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }
}
