/// Usage as the API and the CLI show it: `{"total_reads", "last_read", "readers", "days"}` for a
/// report, `{"total_reads", "readers", "last_read"}` for the summary other answers embed. A
/// window without reads has `last_read` null; an unnamed token's `token_name` is "".
extension UsageReport {
    /// - Parameter perVersion: a type's report, whose readers also list the versions they read.
    public func jsonValue(perVersion: Bool) -> JSONValue {
        let readers: [JSONValue] = readers.map { reader in
            var object: JSONObject = [
                "token_id": .number(String(reader.tokenID)), "token_name": .string(reader.tokenName),
                "reads": .number(String(reader.reads)), "last_read": .string(reader.lastRead),
            ]
            if perVersion {
                object["versions"] = .array(reader.versions.map { ["version": .number(String($0.version)), "reads": .number(String($0.reads))] })
            }
            return .object(object)
        }
        return [
            "total_reads": .number(String(summary.totalReads)), "last_read": summary.lastRead.map { .string($0) } ?? .null,
            "readers": .array(readers),
            "days": .array(days.map { ["day": .string($0.day), "reads": .number(String($0.reads))] }),
        ]
    }
}

extension UsageSummary {
    public var jsonValue: JSONValue {
        [
            "total_reads": .number(String(totalReads)), "readers": .number(String(readers)),
            "last_read": lastRead.map { .string($0) } ?? .null,
        ]
    }
}
