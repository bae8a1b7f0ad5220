import HTTPServer
import Registry

/// Probes and metrics: no token, no database call in `/healthz`, so an orchestrator can tell
/// "process alive" from "able to serve".
enum OperationsHandlers {
    static func health(_ call: Call) throws(RegistryError) -> HTTPResponse {
        JSONResponse.make(["status": "ok"])
    }

    static func ready(_ call: Call, _ operations: Operations) -> HTTPResponse {
        if let reason = operations.unreadyReason() {
            return JSONResponse.make(status: 503, ["status": "unavailable", "reason": .string(reason)])
        }
        if operations.isReadOnly() {
            return JSONResponse.make(
                status: operations.readOnlyIsReady ? 200 : 503,
                ["status": "read-only", "reason": "no primary database is reachable: reads are served, writes answer 503"])
        }
        return JSONResponse.make(["status": "ready"])
    }

    /// The service's own metrics, then the standard process metrics, then the gauges of the
    /// parts around the API.
    static func metrics(_ call: Call, _ metrics: Metrics, _ operations: Operations) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: Array(metrics.render(gauges: ProcessMetrics.gauges() + operations.gauges()).utf8))
    }
}
