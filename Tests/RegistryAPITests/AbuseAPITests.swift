import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Hostile input through the real server, the production `RegistryAPI` and PostgreSQL: what the
/// HTTP layer's own abuse tests (Tests/HTTPServerTests/AbuseTests.swift) cannot see, because the
/// answer depends on the service — its error shape, the field it names, what it stores.
///
/// Slow clients, idle-connection floods and revocation across processes need the binary and its
/// settings: they are in Tests/Robustness/abuse.py. That no token or body text reaches the logs
/// is Tests/ServiceTests/LogTests.swift.
@Suite struct AbuseAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    static let flight = #"{"type":"object","properties":{"gate":{"type":"string"}}}"#

    // MARK: bodies and headers over the limits

    /// The declared length alone decides: the 413 comes while the client has sent only the head,
    /// so the server never waited for (or buffered) the body.
    @Test func declaredOversizedBodyIsRefusedWith413BeforeTheBodyIsSent() throws {
        let connection = try RawHTTPConnection(port: tenant.port, timeoutSeconds: 5)
        let started = Date()
        try connection.write(Array("""
            POST /api/live_activity_schemas HTTP/1.1\r
            Host: x\r
            Authorization: Api \(tenant.token)\r
            Content-Type: application/json\r
            Content-Length: 10000000000\r
            \r

            """.utf8))
        let response = try connection.readResponse()
        try expectError(response, status: 413, code: 8, mentioning: "1048576")
        #expect(Date().timeIntervalSince(started) < 3)
    }

    /// Chunked, the size is unknown up front: the server counts as it reads and answers 413 once
    /// over the limit, discarding the rest rather than holding 4 MiB.
    @Test func chunkedBodyOverTheLimitIs413AndTheServiceStaysUsable() throws {
        let body = [UInt8](repeating: UInt8(ascii: " "), count: 4 << 20)
        let response = try RawHTTPClient.send(
            port: tenant.port, method: "POST", target: "/api/live_activity_schemas",
            headers: [("Authorization", "Api \(tenant.token)"), ("Content-Type", "application/json")],
            body: body, chunkSize: 64 * 1024, timeoutSeconds: 30)
        try expectError(response, status: 413, code: 8)
        #expect(try tenant.publish("AfterBigBody", Self.flight).status == 200)
    }

    @Test func headerFloodsAre431Or400() throws {
        let big = String(repeating: "h", count: 40 * 1024)
        let many = (0..<300).map { "X-Flood-\($0): \(String(repeating: "v", count: 200))\r\n" }.joined()
        for extra in ["X-Big: \(big)\r\n", many, "Cookie: \(String(repeating: "c=1; ", count: 10_000))\r\n"] {
            let raw = try RawHTTPClient.sendRaw(
                port: tenant.port,
                bytes: Array("GET /api/live_activity_schemas?application=\(tenant.code) HTTP/1.1\r\nHost: x\r\nAuthorization: Api \(tenant.token)\r\n\(extra)Connection: close\r\n\r\n".utf8))
            let status = try RawHTTPClient.parse(raw).status
            #expect(status == 431 || status == 400, "status \(status)")
        }
        #expect(try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)").status == 200)
    }

    // MARK: NUL, invalid UTF-8, overlong encodings, very long names

    /// One hostile value per field of each place a request carries text; each must be a 400
    /// whose message starts with the field's name, so the caller can tell what to fix.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let field: String
        let method: String
        let target: String
        let body: [UInt8]?
        var testDescription: String { label }
    }

    static let longName = String(repeating: "N", count: 10_000)

    static func queryCases() -> [Case] {
        var cases: [Case] = []
        for (value, what) in [("%00", "NUL"), ("a%00b", "NUL inside"), ("%C0%AF", "overlong /"), ("%FF", "invalid UTF-8"),
                              ("%ED%A0%80", "UTF-16 surrogate"), ("%E2%82", "truncated UTF-8")] {
            cases.append(Case(label: "query application \(what)", field: "application", method: "GET",
                              target: "/api/live_activity_schemas?application=\(value)", body: nil))
            cases.append(Case(label: "query attributesType \(what)", field: "attributesType", method: "GET",
                              target: "/api/live_activity_schemas?application=APP&attributesType=\(value)", body: nil))
            cases.append(Case(label: "query attributes_type \(what)", field: "attributes_type", method: "GET",
                              target: "/api/live_activity_schemas?application=APP&attributes_type=\(value)", body: nil))
            cases.append(Case(label: "query pageToken \(what)", field: "pageToken", method: "GET",
                              target: "/api/live_activity_schemas?application=APP&pageToken=\(value)", body: nil))
            cases.append(Case(label: "query pageSize \(what)", field: "pageSize", method: "GET",
                              target: "/api/live_activity_schemas?application=APP&pageSize=\(value)", body: nil))
            cases.append(Case(label: "path attributesType \(what)", field: "attributesType", method: "GET",
                              target: "/api/live_activity_schemas/A\(value)B/1?application=APP", body: nil))
            cases.append(Case(label: "path version \(what)", field: "version", method: "GET",
                              target: "/api/live_activity_schemas/A/1\(value)?application=APP", body: nil))
            cases.append(Case(label: "form path attributesType \(what)", field: "attributesType", method: "GET",
                              target: "/api/live_activity_schemas/\(value)/1/form?application=APP", body: nil))
        }
        cases.append(Case(label: "path 10,000-character attributesType", field: "attributesType", method: "GET",
                          target: "/api/live_activity_schemas/\(longName)/1?application=APP", body: nil))
        cases.append(Case(label: "query 10,000-character attributesType", field: "attributesType", method: "GET",
                          target: "/api/live_activity_schemas?application=APP&attributesType=\(longName)", body: nil))
        return cases
    }

    /// Body strings carrying `\u0000` (valid JSON, a NUL in the value), and raw bytes that are not
    /// UTF-8 (an overlong `/`, 0xFF): both must be refused naming the field.
    static func bodyCases() -> [Case] {
        let schema = JSONWriter.string(.string(flight))
        func object(_ members: [(String, String)]) -> [UInt8] {
            Array(("{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
        }
        func raw(_ prefix: String, _ bytes: [UInt8], _ suffix: String) -> [UInt8] {
            Array(prefix.utf8) + bytes + Array(suffix.utf8)
        }
        var cases: [Case] = []
        for (path, label) in [("/api/live_activity_schemas", "create"), ("/api/live_activity_schemas:validate", "validate")] {
            cases += [
                Case(label: "\(label) application with \\u0000", field: "application", method: "POST", target: path,
                     body: object([("application", #""APP\u0000""#), ("attributesType", #""T""#), ("jsonSchema", schema)])),
                Case(label: "\(label) attributesType with \\u0000", field: "attributesType", method: "POST", target: path,
                     body: object([("application", #""APP""#), ("attributesType", #""A\u0000B""#), ("jsonSchema", schema)])),
                Case(label: "\(label) attributesType of 10,000 characters", field: "attributesType", method: "POST", target: path,
                     body: object([("application", #""APP""#), ("attributesType", "\"\(longName)\""), ("jsonSchema", schema)])),
                Case(label: "\(label) jsonSchema with a NUL in a key", field: "jsonSchema", method: "POST", target: path,
                     body: object([("application", #""APP""#), ("attributesType", #""T""#),
                                   ("jsonSchema", #""{\"type\":\"object\",\"properties\":{\"a\u0000\":{}}}""#)])),
                Case(label: "\(label) version with \\u0000", field: "version", method: "POST", target: path,
                     body: object([("application", #""APP""#), ("attributesType", #""T""#), ("jsonSchema", schema),
                                   ("version", #""1\u0000""#)])),
                Case(label: "\(label) attributesType overlong UTF-8", field: "attributesType", method: "POST", target: path,
                     body: raw(#"{"application":"APP","attributesType":"A"#, [0xC0, 0xAF], #"B","jsonSchema":\#(schema)}"#)),
                Case(label: "\(label) application invalid UTF-8", field: "application", method: "POST", target: path,
                     body: raw(#"{"application":"APP"#, [0xFF], #"","attributesType":"T","jsonSchema":\#(schema)}"#)),
                Case(label: "\(label) jsonSchema overlong UTF-8", field: "jsonSchema", method: "POST", target: path,
                     body: raw(#"{"application":"APP","attributesType":"T","jsonSchema":"{\"type\":\"object\",\"title\":\""#,
                               [0xE0, 0x80, 0xAF], #"\"}"}"#)),
            ]
        }
        cases += [
            Case(label: ":check application with \\u0000", field: "application", method: "POST",
                 target: "/api/live_activity_schemas/T/1:check",
                 body: object([("application", #""APP\u0000""#), ("event", #""start""#), ("content_state", "{}")])),
            Case(label: ":check event with \\u0000", field: "event", method: "POST", target: "/api/live_activity_schemas/T/1:check",
                 body: object([("application", #""APP""#), ("event", #""start\u0000""#), ("content_state", "{}")])),
            Case(label: ":preview application with \\u0000", field: "application", method: "POST", target: "/api/live_activities:preview",
                 body: object([("application", #""APP\u0000""#), ("bundle_id", #""b""#), ("live_activity", "{}")])),
            Case(label: ":preview attributes-type with \\u0000", field: "attributes-type", method: "POST",
                 target: "/api/live_activities:preview",
                 body: object([("application", #""APP""#), ("bundle_id", #""b""#),
                               ("live_activity", #"{"attributes-type":"T\u0000","content-state":{}}"#)])),
        ]
        return cases
    }

    @Test(arguments: queryCases() + bodyCases())
    func hostileTextIsInvalidArgumentNamingTheField(_ hostile: Case) throws {
        let target = hostile.target.replacingOccurrences(of: "APP", with: tenant.code)
        let body = hostile.body.map { Self.replacing(Array("APP".utf8), with: Array(tenant.code.utf8), in: $0) }
        var headers = [("Authorization", "Api \(tenant.token)")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let response = try RawHTTPClient.send(port: tenant.port, method: hostile.method, target: target, headers: headers, body: body)
        #expect(response.status == 400, "\(response.status) \(response.bodyText.prefix(300))")
        let message = try response.json()["message"]?.stringValue ?? ""
        #expect(message.hasPrefix(hostile.field) || message.contains("\(hostile.field):") || message.contains(" \(hostile.field) "),
                "message does not name \(hostile.field): \(message.prefix(300))")
        #expect(message.utf8.count < 1000, "the message echoes \(message.utf8.count) bytes of input")
    }

    private static func replacing(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + old.count <= bytes.count, Array(bytes[i..<i + old.count]) == old {
                out += new
                i += old.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    // MARK: SQL metacharacters

    static let nasty = [
        "'; DROP TABLE schema_versions; --", "Robert'); DROP TABLE applications;--", #"back\slash\\"#, "100%", "a%b", "a_b",
        "axb", #""quoted""#, "`tick`", "$1 $$ $tag$", "?", "%s%n%x", "' OR '1'='1", "Ünïcödé 😀 ﷽", "\u{202E}rtl", "a'b''c",
        "E'\\x41'", "--", ";", "*", "\\N", "NULL", "%00", "%25",
    ]

    /// Every text field goes to PostgreSQL as a parameter and comes back unchanged: types, the
    /// schema text, lookups by path and by query, and the application code and name.
    @Test func sqlMetacharactersInEveryFieldAreStoredAndReturnedVerbatim() throws {
        // The schema text also carries what a type name may not: slashes, comments, control characters.
        let metacharacters = Self.nasty.joined(separator: " | ") + " /* c */ \t\n\r\u{0} \u{7F} \u{85}"
        for name in Self.nasty {
            let schema = JSONWriter.string([
                "type": "object", "description": .string(metacharacters),
                "properties": [name: ["type": "string", "title": .string(name)]],
            ])
            let published = try tenant.publish(name, schema)
            #expect(published.status == 200, "\(name): \(published.bodyText)")
            #expect(try published.json()["schema"]?["attributes_type"] == .string(name))
            let fetched = try tenant.request("GET", "/api/live_activity_schemas/\(Self.percentEncoded(name))/1?application=\(tenant.code)")
            #expect(fetched.status == 200, "\(name): \(fetched.bodyText)")
            #expect(try fetched.json()["schema"]?["json_schema"] == .string(schema))
            #expect(try fetched.json()["schema"]?["attributes_type"] == .string(name))
            let listed = try tenant.list(query: "&attributesType=\(Self.percentEncoded(name))")
            #expect(listed.map { $0["attributes_type"] } == [.string(name)], "list for \(name)")
            let form = try tenant.request("GET", "/api/live_activity_schemas/\(Self.percentEncoded(name))/1/form?application=\(tenant.code)")
            #expect(try form.json()["form"]?["content"]?["fields"]?.arrayValue?.first?["name"] == .string(name))
        }
        // LIKE wildcards are plain characters: a_b and a%b match only themselves.
        #expect(Set(try tenant.list().compactMap { $0["attributes_type"]?.stringValue }) == Set(Self.nasty))
    }

    @Test func applicationCodesAndNamesWithMetacharactersRoundTrip() throws {
        let registry = try TestRegistry.shared()
        let admin = AdminStore(pool: registry.pool)
        let code = "X'; DROP TABLE accounts; --%_\\ü\(UInt32.random(in: 0...UInt32.max))"
        let name = #"Name "quoted" ' ; -- \ % _ 😀"#
        _ = try admin.createApplication(accountID: tenant.accountID, code: code, name: name)
        let published = try tenant.post([
            "application": .string(code), "attributesType": "T'x", "jsonSchema": .string(Self.flight),
        ])
        #expect(try published.json()["schema"]?["application"] == .string(code), "\(published.bodyText)")
        let listed = try tenant.request("GET", "/api/live_activity_schemas?application=\(Self.percentEncoded(code))")
        #expect(try listed.json()["schemas"]?.arrayValue?.first?["application"] == .string(code))
        let applications = try tenant.request("GET", "/api/applications").json()["applications"]?.arrayValue ?? []
        #expect(applications.contains { $0["code"] == .string(code) && $0["name"] == .string(name) })
        // The same code with a wildcard in place of a character is another (unknown) application.
        let wildcard = code.replacingOccurrences(of: "X'", with: "_'")
        try expectError(try tenant.request("GET", "/api/live_activity_schemas?application=\(Self.percentEncoded(wildcard))"),
                        status: 404, code: 5)
    }

    @Test func slashInATypeIsRejectedByTheRulesNotStored() throws {
        for name in ["a/b", "/", "x/'; DROP TABLE t; --"] {
            try expectError(try tenant.publish(name, Self.flight), status: 400, code: 3, mentioning: "attributesType")
        }
        #expect(try tenant.list().isEmpty)
    }

    /// RFC 3986 unreserved characters stay, every other UTF-8 byte is percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    // MARK: secrets

    /// Tokens are stored as SHA-256 only: 32 bytes per row, equal to the hash of the secret, and
    /// no column of any row contains the secret or its random part.
    @Test func apiTokensTableHoldsOnly32ByteHashes() throws {
        let registry = try TestRegistry.shared()
        let rows = try registry.pool.withConnection { connection in
            try connection.simpleQuery(
                "SELECT encode(token_hash, 'hex'), octet_length(token_hash), t::text FROM api_tokens t WHERE account_id = \(tenant.accountID)"
            ).rows
        }
        #expect(rows.count == 1)
        let secretPart = String(tenant.token.dropFirst(APIToken.prefix.count))
        for row in rows {
            #expect(try row.string(1) == "32")
            #expect(try row.string(0) == Hex.encode(APIToken.hash(tenant.token)))
            let whole = try row.string(2)
            #expect(!whole.contains(tenant.token) && !whole.contains(secretPart) && !whole.contains(APIToken.prefix))
        }
        // Nowhere else either: no text column of any table holds the secret.
        let anywhere = try registry.pool.withConnection { connection in
            try connection.simpleQuery("""
                SELECT count(*) FROM (
                    SELECT row_to_json(a)::text AS t FROM accounts a UNION ALL
                    SELECT row_to_json(p)::text FROM applications p UNION ALL
                    SELECT row_to_json(k)::text FROM api_tokens k UNION ALL
                    SELECT row_to_json(v)::text FROM schema_versions v) rows
                WHERE position('\(secretPart)' IN t) > 0
                """).rows.first?.string(0)
        }
        #expect(anywhere == "0")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
