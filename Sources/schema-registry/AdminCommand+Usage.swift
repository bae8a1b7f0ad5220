import Registry
import RegistryPostgres

/// `schema-registry admin usage --application CODE TYPE [VERSION] [--days N]`: who read a type
/// (or one version), how often and when last, as the usage routes answer it, for `jq`. Reads
/// what the replicas have flushed (every REGISTRY_USAGE_FLUSH_MS).
extension AdminCommand {
    static func printUsage(_ arguments: Arguments, store: PostgresSchemaStore) async throws {
        let code = try arguments.requiredOption("application")
        let attributesType = arguments.positional[0]
        do { try AttributesTypeName.validate(attributesType) } catch { throw UsageError("TYPE: \(error.message)") }
        let version = try arguments.positional.dropFirst().first.map { text throws(UsageError) -> Int32 in
            guard let number = Int32(text), number >= 1 else { throw UsageError("VERSION must be an integer from 1 to 2147483647") }
            return number
        }
        let days = try arguments.integerOption("days").map { value throws(UsageError) -> Int in
            guard (1...Int64(UsageReport.maxDays)).contains(value) else {
                throw UsageError("--days must be an integer from 1 to \(UsageReport.maxDays)")
            }
            return Int(value)
        }
        guard let application = try await store.application(code: code) else { Console.fail("no application \(code)", status: 1) }
        let report = try await store.usage(application: application, attributesType: attributesType, version: version, days: days ?? 30)
        print(JSONWriter.string(["usage": report.jsonValue(perVersion: version == nil)]))
    }
}
