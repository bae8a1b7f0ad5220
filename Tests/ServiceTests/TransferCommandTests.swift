import Foundation
import Registry
import Testing
import TestSupport

/// `schema-registry admin export` and `admin import` between two databases.
@Suite struct TransferCommandTests {
    private func admin(_ database: ServiceDatabase, _ arguments: [String]) throws -> CommandResult {
        try ServiceProcess.run(
            ["admin"] + arguments, environment: ServiceProcess.environment(["DATABASE_URL": database.url]), timeoutSeconds: 30)
    }

    /// Every version row of the application, texts as hex so equality is byte equality. A
    /// retired number is only a number: its creation time and publisher are not exported.
    private func versions(_ database: ServiceDatabase, _ code: String) throws -> [String] {
        try database.query(
            """
            SELECT v.attributes_type || ' ' || v.version || ' ' || coalesce(encode(convert_to(v.json_schema, 'UTF8'), 'hex'), 'retired')
                   || ' ' || CASE WHEN v.deleted_at IS NULL THEN v.created::text || ' ' || coalesce(v.created_by, '-') ELSE '- -' END
            FROM schema_versions v JOIN applications a ON a.id = v.application_id
            WHERE a.code = '\(code)' ORDER BY v.attributes_type, v.version
            """
        ).map { try $0.string(0) }
    }

    /// Counters and policies of the application, one line each.
    private func settings(_ database: ServiceDatabase, _ code: String) throws -> [String] {
        try database.query(
            """
            SELECT 'counter ' || c.attributes_type || ' ' || c.last_version FROM schema_version_counters c
              JOIN applications a ON a.id = c.application_id WHERE a.code = '\(code)'
            UNION ALL
            SELECT 'policy ' || p.attributes_type || ' ' || p.mode || ' ' || p.enforce || ' ' || p.oldest_supported_version
              FROM compatibility_policies p JOIN applications a ON a.id = p.application_id WHERE a.code = '\(code)'
            ORDER BY 1
            """
        ).map { try $0.string(0) }
    }

    private func count(_ database: ServiceDatabase, _ table: String) throws -> Int64 {
        try database.query("SELECT count(*) FROM \(table)").first?.int64(0) ?? -1
    }

    private func exportFile() -> String {
        NSTemporaryDirectory() + "registry-export-\(UUID().uuidString).json"
    }

    /// A source application with live, deleted and explicit versions, odd texts, a publisher
    /// and policies; returns its code.
    private func populatedSource(_ database: ServiceDatabase) throws -> String {
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let texts = [
            flightSchema(marker: "Caf\u{E9} and Cafe\u{301}"),
            " {\"type\":\"object\" ,\n\t\"properties\":{\"gate\":{\"type\":\"string\",\"description\":\"\\u00e9\\n\"}}} ",
            flightSchema(marker: "three"),
        ]
        for text in texts { #expect(try tenant.publish("FlightAttributes", text).status == 200) }
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/FlightAttributes/2?application=\(tenant.code)").status == 200)
        #expect(try tenant.publish("ScoreAttributes", flightSchema(marker: "explicit"), version: 7).status == 200)
        _ = try database.query(
            """
            UPDATE schema_versions SET created_by = 'ci-bot' WHERE version = 1;
            INSERT INTO compatibility_policies (application_id, attributes_type, mode, enforce)
              SELECT id, '', 'backward', 'reject' FROM applications WHERE code = '\(tenant.code)';
            INSERT INTO compatibility_policies (application_id, attributes_type, mode, enforce, oldest_supported_version)
              SELECT id, 'ScoreAttributes', 'backward_transitive', 'warn', 3 FROM applications WHERE code = '\(tenant.code)'
            """)
        return tenant.code
    }

    @Test func exportThenImportIntoAnEmptyDatabaseReproducesEveryVersionByteForByteAndTwiceChangesNothing() throws {
        let source = try ServiceDatabase.make()
        let sourceCode = try populatedSource(source)
        let file = exportFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let exported = try admin(source, ["export", "--application", sourceCode, "--out", file])
        #expect(exported.status == 0, "\(exported)")

        let target = try ServiceDatabase.make()
        let targetCode = try target.makeTenant(port: 0).code
        let auditBefore = try count(target, "audit_events")  // the tenant's application and token
        let imported = try admin(target, ["import", "--application", targetCode, file])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.hasPrefix("imported 3 versions, 1 retired numbers, 2 counters, 2 policies"), "\(imported)")

        let sourceVersions = try versions(source, sourceCode)
        #expect(sourceVersions.count == 4)
        #expect(try versions(target, targetCode) == sourceVersions)
        #expect(try settings(target, targetCode) == settings(source, sourceCode))
        #expect(try count(target, "audit_events WHERE action = 'import' AND actor = 'cli'") == 1)
        // The next free number continues after the retired and explicit ones.
        #expect(try settings(target, targetCode).contains("counter ScoreAttributes 7"))

        let events = try count(target, "change_events")
        let again = try admin(target, ["import", "--application", targetCode, file])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.hasPrefix("unchanged"), "\(again)")
        #expect(try versions(target, targetCode) == sourceVersions)
        #expect(try count(target, "audit_events") == auditBefore + 1)
        #expect(try count(target, "change_events") == events)

        // Export to stdout gives the same document as the file.
        let printed = try admin(source, ["export", "--application", sourceCode])
        #expect(printed.stdout == (try String(contentsOfFile: file, encoding: .utf8)))
    }

    /// Types whose names differ only in Unicode normalisation are two types in the export, each
    /// with only its own versions.
    @Test func canonicallyEquivalentTypeNamesAreExportedAsTwoTypes() throws {
        let source = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(source.url))
        defer { server.kill() }
        let tenant = try source.makeTenant(port: server.port)
        #expect(try tenant.publish("Caf\u{E9}", flightSchema(marker: "composed")).status == 200)
        #expect(try tenant.publish("Cafe\u{301}", flightSchema(marker: "decomposed")).status == 200)
        let printed = try admin(source, ["export", "--application", tenant.code])
        #expect(printed.status == 0, "\(printed)")
        let document = try ApplicationExport(json: JSONParser.parse(printed.stdout))
        let byName = document.types.map { (Array($0.attributesType.utf8), $0.versions.map(\.jsonSchema)) }
        #expect(byName.count == 2)
        for (name, texts) in byName {
            let marker = name == Array("Caf\u{E9}".utf8) ? "composed" : "decomposed"
            #expect(texts.count == 1 && texts[0].contains("\"\(marker)\""), "\(texts)")
        }
    }

    @Test func aDryRunAndAConflictingImportWriteNothing() throws {
        let source = try ServiceDatabase.make()
        let sourceCode = try populatedSource(source)
        let file = exportFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try admin(source, ["export", "--application", sourceCode, "--out", file]).status == 0)

        let target = try ServiceDatabase.make()
        let targetCode = try target.makeTenant(port: 0).code
        let auditBefore = try count(target, "audit_events")  // the tenant's application and token
        let dryRun = try admin(target, ["import", "--application", targetCode, file, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.stdout.hasPrefix("dry run, nothing written: would import 3 versions"), "\(dryRun)")
        for table in ["schema_versions", "schema_version_counters", "compatibility_policies", "change_events"] {
            #expect(try count(target, table) == 0, "\(table)")
        }
        #expect(try count(target, "audit_events") == auditBefore)

        // Version 3 of FlightAttributes exists here with another text; version 2 is live here.
        _ = try target.query(
            """
            INSERT INTO schema_version_counters (application_id, attributes_type, last_version)
              SELECT id, 'FlightAttributes', 3 FROM applications WHERE code = '\(targetCode)';
            INSERT INTO schema_versions (application_id, attributes_type, version, json_schema)
              SELECT id, 'FlightAttributes', v, '{"type":"object"}' FROM applications, generate_series(2, 3) AS v
              WHERE code = '\(targetCode)'
            """)
        let before = try versions(target, targetCode)
        let eventsBefore = try count(target, "change_events")
        let conflicting = try admin(target, ["import", "--application", targetCode, file])
        #expect(conflicting.status == 1, "\(conflicting)")
        #expect(conflicting.stderr.contains("conflict: FlightAttributes version 3: exists here with other content"), "\(conflicting)")
        #expect(conflicting.stderr.contains("conflict: FlightAttributes version 2: live here, deleted in the file"), "\(conflicting)")
        #expect(try versions(target, targetCode) == before)
        #expect(try count(target, "compatibility_policies") == 0)
        #expect(try count(target, "audit_events") == auditBefore)
        #expect(try count(target, "change_events") == eventsBefore)
    }

    @Test(arguments: [
        (#"{"format":"other"}"#, "format"),
        (#"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[{"attributes_type":"T","last_version":1,"versions":[],"retired":[2]}],"policies":[]}"#, "types[0].retired[0]"),
        (#"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[],"policies":[{"attributes_type":"","mode":"sideways","enforce":"warn","oldest_supported_version":1}]}"#, "policies[0].mode"),
        (#"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[{"attributes_type":"T","last_version":1,"versions":[{"version":1,"json_schema":"[]","created":"2026-01-01T00:00:00Z","created_by":null}],"retired":[]}],"policies":[]}"#, "T version 1"),
        (#"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[{"attributes_type":"T","last_version":1,"versions":[{"version":1,"json_schema":"{}","created":"yesterday","created_by":null}],"retired":[]}],"policies":[]}"#, "types[0].versions[0].created"),
        // Dates of the right shape that do not exist: PostgreSQL refused them mid-import, as `internal`.
        (#"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[{"attributes_type":"T","last_version":1,"versions":[{"version":1,"json_schema":"{}","created":"2026-02-30T00:00:00Z","created_by":null}],"retired":[]}],"policies":[]}"#, "types[0].versions[0].created"),
        (#"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[{"attributes_type":"T","last_version":1,"versions":[{"version":1,"json_schema":"{}","created":"0000-01-01T00:00:00Z","created_by":null}],"retired":[]}],"policies":[]}"#, "types[0].versions[0].created"),
        (#"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[],"policies":[{"attributes_type":"a/b","mode":"none","enforce":"warn","oldest_supported_version":1}]}"#, "policies[0].attributes_type"),
    ])
    func aMalformedFileIsRefusedNamingThePathAndWritesNothing(document: String, path: String) throws {
        let target = try ServiceDatabase.make()
        let code = try target.makeTenant(port: 0).code
        let file = exportFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try document.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try admin(target, ["import", "--application", code, file])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains(path), "\(result)")
        #expect(try count(target, "schema_versions") == 0)
    }
}
