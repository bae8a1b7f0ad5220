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
