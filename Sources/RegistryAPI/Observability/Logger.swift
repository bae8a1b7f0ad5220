#if canImport(Glibc)
import Glibc
#endif
import Registry

/// Structured logs: one JSON object per line on stdout. Callers pass fields, never request
/// bodies or tokens; the logger adds the time and level.
public final class Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        /// The case's name, as log lines and settings spell the level.
        public var name: String { String(describing: self) }

        public init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let minimumLevel: Level
    private let sink: @Sendable ([UInt8]) -> Void

    /// Logs at `minimumLevel` and above to `sink` (standard output by default).
    public init(minimumLevel: Level = .info, sink: @escaping @Sendable ([UInt8]) -> Void = Logger.standardOutput) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// A logger that writes nothing, for tests and tools.
    public static let disabled = Logger(minimumLevel: .error, sink: { _ in })

    /// Whether lines at `level` are written, so callers can skip building their fields.
    public func logs(_ level: Level) -> Bool { level >= minimumLevel }

    public func log(_ level: Level, _ message: String, _ fields: @autoclosure () -> JSONObject = [:]) {
        guard level >= minimumLevel else { return }
        var line: JSONObject = ["time": .string(Timestamp.rfc3339(WallClock.now())), "level": .string(level.name), "msg": .string(message)]
        line.members.append(contentsOf: fields().members)
        var bytes = JSONWriter.bytes(.object(line))
        bytes.append(UInt8(ascii: "\n"))
        sink(bytes)
    }

    /// One `write(2)` per line, so lines from concurrent workers never interleave.
    public static let standardOutput: @Sendable ([UInt8]) -> Void = { bytes in
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// RFC 3339 UTC timestamps with milliseconds for logs.
enum Timestamp {
    static func rfc3339(_ unixSeconds: Double) -> String {
        var seconds = time_t(unixSeconds.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int((unixSeconds - Double(seconds)) * 1000)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}
