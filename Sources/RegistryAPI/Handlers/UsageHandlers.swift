import HTTPServer
import Registry

/// `GET …/{attributesType}/{version}/usage` and `GET /api/live_activity_types/{attributesType}/usage`:
/// who read a version (or any version of a type), how often and when last, over the last
/// `days` UTC days. This replica's counts are flushed first, so its own reads are in the
/// answer; another replica's arrive with its next flush (every few seconds). Both statements
/// are driven by the event loop.
enum UsageHandlers {
    static let days = FieldName("days")
    static let defaultDays = 30

    static func version(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType, version) = try call.versionPath()
        return try await report(call, code: code, attributesType: attributesType, version: version)
    }

    static func type(_ call: Call) async throws(RegistryError) -> HTTPResponse {
        let (code, attributesType) = try call.typePath()
        return try await report(call, code: code, attributesType: attributesType, version: nil)
    }

    private static func report(_ call: Call, code: String, attributesType: String, version: Int32?)
        async throws(RegistryError) -> HTTPResponse
    {
        let window = try days(call.query.string(days))
        let application = try await call.application(code: code)
        let report = try await read(call, application, attributesType, version: version, days: window)
        return JSONResponse.make(["usage": report.jsonValue(perVersion: version == nil)])
    }

    /// The usage summary the state-change and delete answers carry (`"usage"`): every read kept
    /// (the retention), this replica's counts flushed first.
    static func summary(_ call: Call, _ application: Application, _ attributesType: String, version: Int32)
        async throws(RegistryError) -> JSONValue
    {
        try await read(call, application, attributesType, version: version, days: nil).summary.jsonValue
    }

    /// Flushes this replica's counts, then reads: two statements the event loop drives, so a
    /// usage answer (and a delete's) holds no handler thread.
    private static func read(_ call: Call, _ application: Application, _ attributesType: String, version: Int32?, days: Int?)
        async throws(RegistryError) -> UsageReport
    {
        try await call.usage.flush(for: call)
        return try await call.read { try await $0.usage(application: application, attributesType: attributesType, version: version, days: days) }
    }

    /// 1 to `UsageReport.maxDays`; omitted or empty: 30.
    static func days(_ text: String?) throws(RegistryError) -> Int {
        guard let text, !text.isEmpty else { return defaultDays }
        guard let value = Int(text), (1...UsageReport.maxDays).contains(value) else {
            throw .invalidArgument("days: must be an integer from 1 to \(UsageReport.maxDays)")
        }
        return value
    }
}
