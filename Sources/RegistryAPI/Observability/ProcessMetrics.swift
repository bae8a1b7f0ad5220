#if canImport(Glibc)
import Glibc
#endif

/// The process metrics every Prometheus client library exports, under their standard names, so
/// that the usual dashboards and alerts work: memory against its budget, CPU time, file
/// descriptors against their limit, and the start time (restarts show as jumps). Read from
/// Linux's `/proc` on every scrape; a value that cannot be read is left out rather than
/// reported as zero.
enum ProcessMetrics {
    static func gauges() -> [Gauge] {
        var gauges: [Gauge] = []
        if let stat = ProcessStat.read() {
            gauges.append(
                Gauge("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", value: stat.cpuSeconds, type: "counter"))
            gauges.append(Gauge("process_resident_memory_bytes", "Resident memory size in bytes.", value: Double(stat.residentBytes)))
        }
        if let startTime = startTimeSeconds {
            gauges.append(Gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", value: startTime))
        }
        if let open = openDescriptors() {
            gauges.append(Gauge("process_open_fds", "Number of open file descriptors.", value: Double(open)))
        }
        if let limit = descriptorLimit() {
            gauges.append(Gauge("process_max_fds", "Maximum number of open file descriptors.", value: Double(limit)))
        }
        return gauges
    }

    /// Boot time (`btime` in `/proc/stat`) plus the process's start in clock ticks after boot.
    /// It never changes, so it is read once.
    static let startTimeSeconds: Double? = {
        guard let stat = ProcessStat.read(), let text = ProcFile.read("/proc/stat") else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("btime ") }
        guard let bootTime = line.flatMap({ Double($0.dropFirst("btime ".count)) }) else { return nil }
        return bootTime + Double(stat.startTicks) / ProcessStat.ticksPerSecond
    }()

    /// Entries of `/proc/self/fd` (the one this count opens included, as other clients count).
    static func openDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDescriptor = withUnsafePointer(to: &entry.pointee.d_name) {
                UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self).pointee != CChar(UInt8(ascii: "."))
            }
            if isDescriptor { count += 1 }
        }
        return count
    }

    /// The soft `RLIMIT_NOFILE`: the most descriptors the process may open; nil when unlimited
    /// (`RLIM_INFINITY`, all bits set, which Swift cannot import as a constant).
    static func descriptorLimit() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
