import Foundation
import Registry
import RegistryPostgres

/// `schema-registry admin audit [--account ID] [--since TIME]`: the audit trail as one JSON
/// object per line, oldest first like a log, for `jq`.
extension AdminCommand {
    /// Events read per query, so a long trail streams in bounded memory.
    static let auditBatch = 1000

    static func printAudit(_ arguments: Arguments, store: PostgresSchemaStore) async throws {
        var query = AuditQuery(
            order: .oldestFirst, accountID: try arguments.integerOption("account"),
            since: try arguments.option("since").map { text throws(UsageError) in try since(text) }, limit: auditBatch)
        while true {
            let events = try await store.auditEvents(query)
            for event in events { print(JSONWriter.string(event.jsonValue)) }
            guard events.count == auditBatch, let last = events.last else { return }
            query.cursor = last.id
        }
    }

    /// An RFC 3339 time, or a lifetime back from now (`24h`, `7d`).
    private static func since(_ text: String) throws(UsageError) -> Double {
        if let seconds = try? RFC3339Time.unixSeconds(text, field: "since") { return seconds }
        guard let back = try? LifetimeText.seconds(text, option: "since") else {
            throw UsageError("--since must be an RFC 3339 time (2026-09-01T10:00:00Z) or a duration back from now (24h, 7d)")
        }
        return Date().timeIntervalSince1970 - Double(back)
    }
}
