import Registry
import Striping

/// The service's Prometheus metrics. Counters and the latency histogram live here; values
/// owned elsewhere (pool sizes, cache bytes) are read at scrape time through `Gauge`s so
/// there is one source of truth for each number.
public final class Metrics: Sendable {
    /// Latency buckets in seconds: cache hits answer in well under a millisecond, database
    /// writes in a few, and anything near the statement timeout is trouble.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    /// One answer's labels besides its route.
    private struct Answer: Hashable { let method: String; let status: Int }

    private struct Histogram {
        var counts = [UInt64](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count: UInt64 = 0

        mutating func record(_ seconds: Double) {
            for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            sum += seconds
            count += 1
        }
    }

    /// Everything counted for one route template, so that a request hashes its route (a long
    /// string) once, not once for its counter and again for its histogram.
    private struct RouteTally {
        var answers: [Answer: UInt64] = [:]
        var durations = Histogram()

        mutating func record(_ answer: Answer, seconds: Double) {
            answers[answer, default: 0] += 1
            durations.record(seconds)
        }

        mutating func merge(_ other: RouteTally) {
            answers.merge(other.answers, uniquingKeysWith: +)
            for i in durations.counts.indices { durations.counts[i] += other.durations.counts[i] }
            durations.sum += other.durations.sum
            durations.count += other.durations.count
        }
    }

    private struct State {
        var routes: [String: RouteTally] = [:]
        var databaseErrors: [String: UInt64] = [:]
        var published: UInt64 = 0
        var deleted: UInt64 = 0

        mutating func merge(_ other: State) {
            databaseErrors.merge(other.databaseErrors, uniquingKeysWith: +)
            published += other.published
            deleted += other.deleted
            for (route, tally) in other.routes { routes[route, default: RouteTally()].merge(tally) }
        }
    }

    /// One tally per thread (event loop or handler thread), merged at scrape time: every
    /// request records here.
    private let state = Striped<State>(count: 16) { State() }

    public init() {}

    /// Methods counted under their own name; any other is counted as `other`.
    static let knownMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"]

    /// The label a method is counted under: clients choose methods freely, and each distinct
    /// label value is a series kept forever and rendered on every scrape. Compared as bytes in
    /// place (a set of byte arrays cost an array per request).
    static func methodLabel(_ method: String) -> String {
        knownMethods.contains { $0.hasSameBytes(as: method) } ? method : "other"
    }

    /// Counts one answered request under its route template (never the raw path) and a known
    /// method or `other`, so clients cannot create label values: the series are bounded by
    /// routes × methods × statuses.
    public func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        let answer = Answer(method: Self.methodLabel(method), status: status)
        state.withThreadStripe { state in
            state.routes[route, default: RouteTally()].record(answer, seconds: seconds)
        }
    }

    /// Counts a failed database call by kind (`unavailable`, `internal`, …).
    public func recordDatabaseError(kind: String) {
        state.withThreadStripe { $0.databaseErrors[kind, default: 0] += 1 }
    }

    public func recordPublished() { state.withThreadStripe { $0.published += 1 } }
    public func recordDeleted() { state.withThreadStripe { $0.deleted += 1 } }

    /// The text exposition format (version 0.0.4), with `gauges` appended.
    public func render(gauges: [Gauge]) -> String {
        var snapshot = State()
        state.forEach { stripe in snapshot.merge(stripe) }
        var out = PrometheusText()
        out.family("registry_http_requests_total", "counter", "HTTP requests answered, by route template, method and status.")
        let requests = snapshot.routes.flatMap { route, tally in
            tally.answers.map { (route: route, method: $0.key.method, status: $0.key.status, count: $0.value) }
        }
        for request in requests.sorted(by: { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }) {
            out.sample("registry_http_requests_total", ["route": request.route, "method": request.method, "status": String(request.status)], Double(request.count))
        }
        out.family("registry_http_request_duration_seconds", "histogram", "Time from request to response, by route template.")
        for (route, tally) in snapshot.routes.sorted(by: { $0.key < $1.key }) {
            let histogram = tally.durations
            for (i, bound) in Self.buckets.enumerated() {
                out.sample("registry_http_request_duration_seconds_bucket", ["route": route, "le": PrometheusText.number(bound)], Double(histogram.counts[i]))
            }
            out.sample("registry_http_request_duration_seconds_bucket", ["route": route, "le": "+Inf"], Double(histogram.count))
            out.sample("registry_http_request_duration_seconds_sum", ["route": route], histogram.sum)
            out.sample("registry_http_request_duration_seconds_count", ["route": route], Double(histogram.count))
        }
        out.family("registry_database_errors_total", "counter", "Failed database calls, by kind.")
        for (kind, value) in snapshot.databaseErrors.sorted(by: { $0.key < $1.key }) {
            out.sample("registry_database_errors_total", ["kind": kind], Double(value))
        }
        out.family("registry_schema_versions_published_total", "counter", "Schema versions published by this process.")
        out.sample("registry_schema_versions_published_total", [:], Double(snapshot.published))
        out.family("registry_schema_versions_deleted_total", "counter", "Schema versions deleted by this process.")
        out.sample("registry_schema_versions_deleted_total", [:], Double(snapshot.deleted))
        for gauge in gauges {
            out.family(gauge.name, gauge.type, gauge.help)
            out.sample(gauge.name, gauge.labels, gauge.value)
        }
        return out.text
    }
}

/// A value owned elsewhere and read at scrape time: a gauge, or a counter kept by its owner.
public struct Gauge: Sendable {
    public let name: String
    public let help: String
    public let labels: [String: String]
    public let value: Double
    /// `gauge` or `counter`.
    public let type: String

    public init(_ name: String, _ help: String, labels: [String: String] = [:], value: Double, type: String = "gauge") {
        self.name = name
        self.help = help
        self.labels = labels
        self.value = value
        self.type = type
    }
}

/// Builds exposition text: `# HELP`/`# TYPE` once per family, escaped label values.
struct PrometheusText {
    private(set) var text = ""
    private var families: Set<String> = []

    mutating func family(_ name: String, _ type: String, _ help: String) {
        guard families.insert(name).inserted else { return }
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [String: String], _ value: Double) {
        text += name
        if !labels.isEmpty {
            let rendered = labels.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\"\(Self.escape($0.value))\"" }
            text += "{" + rendered.joined(separator: ",") + "}"
        }
        text += " " + Self.number(value) + "\n"
    }

    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
