import Registry

/// Version usage (`version_reads`, migration 0016): a flush's counts in one upsert, reports in
/// one read, pruning in small batches.
extension PostgresSchemaStore {
    /// One statement for the whole flush: the counts travel as one JSON parameter (a type name
    /// may hold any character, which JSON escapes exactly), rows are written in key order so
    /// replicas flushing the same keys lock them in one order, and an existing row gets the
    /// reads added and the later last read.
    public func addReads(_ counts: [(key: UsageKey, tally: UsageTally)]) async throws {
        guard !counts.isEmpty else { return }
        let rows: [JSONValue] = counts.sorted { UsageKey.flushOrder($0.key, $1.key) }.map { key, tally in
            [
                "a": .number(String(key.applicationID)), "t": .string(key.attributesType.text), "v": .number(String(key.version)),
                "k": .number(String(key.tokenID)), "d": .number(String(key.day)), "n": .number(String(tally.reads)),
                "l": .number(String(tally.lastRead)),
            ]
        }
        try await pool.value(
            of: StoreStatement(statement: Self.addReadsStatement, parameters: [JSONWriter.string(.array(rows))], retry: .write) { _ in () })
    }

    public func usage(application: Application, attributesType: String, version: Int32?, days: Int?) async throws -> UsageReport {
        let parameters: [(any PGParameter)?] = [
            application.id, attributesType, version, days, Int64(UsageReport.maxReaders), Int64(UsageReport.maxVersionsPerReader),
        ]
        return try await pool.value(of: StoreStatement(statement: Self.usageReport, parameters: parameters) { try Self.report($0.rows) })
    }

    /// Each batch its own short statement, like the audit trail's pruning.
    public func pruneUsage(olderThanDays days: Int, batchSize: Int = 1000) throws -> Int {
        try pool.deleteInBatches(Self.usagePruneBatch, olderThanDays: days, batchSize: batchSize)
    }

    /// The rows of `usage_report`: kind, token id (or the total's reader count), text (token
    /// name or day), version, reads, last read.
    static func report(_ rows: [PGRow]) throws -> UsageReport {
        var summary = UsageSummary(totalReads: 0, readers: 0, lastRead: nil)
        var readers: [UsageReport.Reader] = []
        var versions: [Int64: [(version: Int32, reads: Int64)]] = [:]
        var days: [(day: String, reads: Int64)] = []
        for row in rows {
            switch try row.string(0) {
            case "total":
                summary = UsageSummary(totalReads: try row.int64(4), readers: try row.int64(1), lastRead: try row.optionalString(5))
            case "reader":
                readers.append(
                    UsageReport.Reader(tokenID: try row.int64(1), tokenName: try row.string(2), reads: try row.int64(4), lastRead: try row.string(5)))
            case "version":
                versions[try row.int64(1), default: []].append((try row.int32(3), try row.int64(4)))
            default:
                days.append((try row.string(2), try row.int64(4)))
            }
        }
        readers.sort { ($0.reads, $1.tokenID) > ($1.reads, $0.tokenID) }
        for index in readers.indices {
            readers[index].versions = (versions[readers[index].tokenID] ?? []).sorted { ($0.reads, $0.version) > ($1.reads, $1.version) }
        }
        days.sort { $0.day < $1.day }
        return UsageReport(summary: summary, readers: readers, days: days)
    }

    static let addReadsStatement = PGStatement(file: "usage_add_reads")
    static let usageReport = PGStatement(file: "usage_report")
    static let usagePruneBatch = PGStatement(file: "usage_prune_batch")
}
