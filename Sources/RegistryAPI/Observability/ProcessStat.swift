#if canImport(Glibc)
import Glibc
#endif

/// The fields of `/proc/self/stat` the metrics need (proc(5)).
struct ProcessStat {
    /// `utime` + `stime`, in seconds.
    let cpuSeconds: Double
    /// `rss` pages times the page size.
    let residentBytes: Int
    /// `starttime`: clock ticks after boot.
    let startTicks: UInt64

    static let ticksPerSecond = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
    static let pageBytes = max(1, sysconf(Int32(_SC_PAGESIZE)))

    static func read() -> ProcessStat? {
        guard let text = ProcFile.read("/proc/self/stat") else { return nil }
        return parse(text)
    }

    /// The command name (field 2) is in parentheses and may hold spaces and `)`, so fields are
    /// counted after the last `)`: the first there is field 3 (`state`).
    static func parse(_ text: String) -> ProcessStat? {
        guard let close = text.utf8.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = text[text.utf8.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> UInt64? {
            let index = number - 3
            return index < fields.count ? UInt64(fields[index].filter { $0 != "\n" }) : nil
        }
        guard let user = field(14), let system = field(15), let start = field(22), let pages = field(24) else { return nil }
        return ProcessStat(
            cpuSeconds: Double(user + system) / ticksPerSecond, residentBytes: Int(pages) * pageBytes, startTicks: start)
    }
}

/// Reads a small `/proc` file whole (their size is reported as 0, so it is read until the end).
enum ProcFile {
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
