import Foundation
import Testing
import TestSupport

/// `/healthz`, `/readyz` and `/metrics` of a running process, on the main port or an admin port.
@Suite struct ProbeAndMetricsTests {
    /// Checks the exposition format and returns the sample lines.
    private func samples(_ text: String) -> [String] {
        var described: Set<String> = []
        var typed: [String: String] = [:]
        var samples: [String] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# HELP ") {
                let parts = line.split(separator: " ", maxSplits: 3)
                #expect(parts.count == 4, "HELP has a text: \(line)")
                described.insert(String(parts[2]))
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ").map(String.init)
                #expect(parts.count == 4 && ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]), "\(line)")
                #expect(described.contains(parts[2]), "HELP before TYPE: \(line)")
                #expect(typed[parts[2]] == nil, "one TYPE per family: \(line)")
                typed[parts[2]] = parts[3]
            } else if line.hasPrefix("#") {
                continue
            } else {
                let match = line.wholeMatch(
                    of: /([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (\S+)/)
                #expect(match != nil, "a sample line: \(line)")
                guard let match else { continue }
                let name = String(match.output.1)
                #expect(Double(match.output.3) != nil || ["+Inf", "-Inf", "NaN"].contains(String(match.output.3)), "\(line)")
                var family = name
                for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
                    let base = String(name.dropLast(suffix.count))
                    if typed[base] == "histogram" || typed[base] == "summary" { family = base }
                }
                #expect(typed[family] != nil, "# TYPE comes before the samples of \(family)")
                samples.append(line)
            }
        }
        return samples
    }

    @Test func probesAnswerWithoutATokenAndMetricsAreTheExpositionFormat() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let health = try RawHTTPClient.send(port: server.port, target: "/healthz")
        #expect(health.status == 200)
        let ready = try RawHTTPClient.send(port: server.port, target: "/readyz")
        #expect(ready.status == 200, "\(ready.bodyText)")
        #expect(ready.header("content-type")?.hasPrefix("application/json") == true)

        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        #expect(try tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/1?application=\(tenant.code)").status == 200)
        #expect(try tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/9?application=\(tenant.code)").status == 404)

        let metrics = try RawHTTPClient.send(port: server.port, target: "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("content-type")?.hasPrefix("text/plain") == true, "\(metrics.header("content-type") ?? "")")
        let lines = samples(metrics.bodyText)
        let text = metrics.bodyText
        func has(_ pattern: Regex<Substring>, _ what: String) {
            #expect(lines.contains { $0.wholeMatch(of: pattern) != nil }, "\(what) in:\n\(text)")
        }
        has(
            /registry_http_requests_total\{method="POST",route="\/api\/live_activity_schemas",status="200"\} 1/,
            "the publish, by template")
        has(
            /registry_http_requests_total\{method="GET",route="\/api\/live_activity_schemas\/\{attributesType\}\/\{version\}",status="404"\} 1/,
            "the 404, by template")
        has(/registry_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/, "the probe")
        has(/registry_http_request_duration_seconds_bucket\{.*le="\+Inf".*\} \d+/, "the +Inf bucket")
        has(/registry_http_request_duration_seconds_count\{.*\} \d+/, "the histogram count")
        has(/registry_db_pool_size \d+/, "the pool size")
        has(/registry_schema_versions_published_total 1/, "one version published")
        has(/registry_cache_bytes \d+/, "cache bytes")
        has(/registry_cache_fenced 0/, "the cache fence, down while the follower keeps up")
        has(/registry_build_info\{.*version="[^"]+".*\} 1/, "build info")
        #expect(!text.contains("FlightAttributes"), "raw paths never become label values")
        #expect(!text.contains(tenant.code), "application codes never become label values")
    }

    @Test func withAnAdminListenAddressProbesMoveToTheAdminPort() throws {
        let database = try ServiceDatabase.make()
        let adminPort = try TestPorts.free()
        let server = try ServiceProcess.serve(
            environment: serveEnvironment(database.url, ["REGISTRY_ADMIN_LISTEN": "127.0.0.1:\(adminPort)"]),
            healthPort: adminPort)
        defer { server.kill() }
        #expect(server.port != adminPort)
        for path in ["/healthz", "/readyz", "/metrics"] {
            let main = try RawHTTPClient.send(port: server.port, target: path)
            #expect(main.status == 404, "\(path) on the main port: \(main.status)")
            #expect(main.errorCode == 5, "\(main.bodyText)")
            let admin = try RawHTTPClient.send(port: adminPort, target: path)
            #expect(admin.status == 200, "\(path) on the admin port: \(admin.status) \(admin.bodyText)")
        }
        // The API stays on the main port only, and the admin port's metrics count its requests.
        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        #expect(try tenant.on(port: adminPort).publish("FlightAttributes", flightSchema()).status == 404)
        let metrics = try RawHTTPClient.send(port: adminPort, target: "/metrics").bodyText
        #expect(metrics.contains(#"registry_http_requests_total{method="POST",route="/api/live_activity_schemas",status="200"} 1"#), "\(metrics)")
        #expect(metrics.contains("registry_schema_versions_published_total 1"), "\(metrics)")
    }

    @Test func readinessIs503OnADatabaseBehindTheBinarysMigrations() throws {
        // A database migrated by an older build: the last migration is recorded as not applied.
        let database = try ServiceDatabase.make()
        let latest = try #require(try database.query("SELECT max(version) FROM schema_migrations").first?.string(0))
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        #expect(try RawHTTPClient.send(port: server.port, target: "/readyz").status == 200)
        _ = try database.query("DELETE FROM schema_migrations WHERE version = \(latest)")
        let ready = try RawHTTPClient.send(port: server.port, target: "/readyz")
        #expect(ready.status == 503, "\(ready.bodyText)")
        #expect(try ready.json()["reason"]?.stringValue?.contains("migrat") == true, "\(ready.bodyText)")
        #expect(try RawHTTPClient.send(port: server.port, target: "/healthz").status == 200)
    }
}
