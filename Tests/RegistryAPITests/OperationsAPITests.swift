#if canImport(Glibc)
import Glibc
#endif
import Registry
import Testing
import TestSupport

/// Probes, metrics and request ids through the in-process server; the process-level
/// behaviour (signals, logs, admin listener) is in ServiceTests.
@Suite struct OperationsAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    @Test func probesNeedNoToken() throws {
        #expect(try tenant.request("GET", "/healthz", token: nil).json() == ["status": "ok"])
        #expect(try tenant.request("GET", "/readyz", token: nil).status == 200)
    }

    @Test func metricsAreInThePrometheusTextFormat() throws {
        _ = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)")
        let response = try tenant.request("GET", "/metrics", token: nil)
        #expect(response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = response.bodyText
        #expect(text.contains("# TYPE registry_http_requests_total counter"))
        #expect(text.contains(#"registry_http_requests_total{method="GET",route="/api/live_activity_schemas",status="200"}"#))
        #expect(text.contains(#"registry_http_request_duration_seconds_bucket{le="+Inf",route="/api/live_activity_schemas"}"#))
        var declared: Set<String> = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") { declared.insert(String(line.split(separator: " ")[2])) }
            if line.hasPrefix("#") { continue }
            let name = String(line.prefix { $0 != "{" && $0 != " " })
            let family = ["_bucket", "_sum", "_count"].reduce(name) { $0.hasSuffix($1) && !declared.contains($0) ? String($0.dropLast($1.count)) : $0 }
            #expect(declared.contains(family), "sample \(name) before its # TYPE line")
        }
    }

    @Test func processMetricsAreReadOnEveryScrapeWithSaneValues() throws {
        let text = try tenant.request("GET", "/metrics", token: nil).bodyText
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("process_") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { values[String(parts[0])] = Double(String(parts[1])) }
        }
        for (name, type) in [
            ("process_resident_memory_bytes", "gauge"), ("process_cpu_seconds_total", "counter"), ("process_open_fds", "gauge"),
            ("process_max_fds", "gauge"), ("process_start_time_seconds", "gauge"),
        ] {
            #expect(text.contains("# TYPE \(name) \(type)\n"), "\(name)")
            #expect(text.contains("# HELP \(name) "), "\(name)")
            #expect(values[name] != nil, "\(name) in:\n\(text)")
        }
        #expect((values["process_resident_memory_bytes"] ?? 0) > Double(1 << 20))
        #expect((values["process_cpu_seconds_total"] ?? -1) > 0)
        let open = values["process_open_fds"] ?? 0
        #expect(open >= 1 && open <= (values["process_max_fds"] ?? 0))
        let now = Double(time(nil))
        let started = values["process_start_time_seconds"] ?? 0
        #expect(started <= now + 1 && started > now - 3600, "started \(started), now \(now)")
        // Read on each scrape: CPU time only grows.
        let later = try tenant.request("GET", "/metrics", token: nil).bodyText
        let cpu = later.split(separator: "\n").first { $0.hasPrefix("process_cpu_seconds_total ") }.flatMap { Double(String($0.split(separator: " ")[1])) }
        #expect((cpu ?? -1) >= (values["process_cpu_seconds_total"] ?? 0))
    }

    @Test func requestIDsAreEchoedWhenSafeAndGeneratedOtherwise() throws {
        let kept = try tenant.request("GET", "/healthz", token: nil, headers: [("X-Request-Id", "abc-123")])
        #expect(kept.header("X-Request-Id") == "abc-123")
        for unsafe in ["has space", String(repeating: "a", count: 200), "semi;colon"] {
            let replaced = try tenant.request("GET", "/healthz", token: nil, headers: [("X-Request-Id", unsafe)])
            let id = try #require(replaced.header("X-Request-Id"))
            #expect(id != unsafe && id.count == 32)
        }
    }
}
