import Foundation
import Registry
import Testing
import TestSupport

/// Logs: one JSON object per line on stdout, a line per request with its request id, and never
/// a secret (token, database password) or request body text.
@Suite struct LogTests {
    private static let getRoute = "/api/live_activity_schemas/{attributesType}/{version}"

    private func requestLine(_ server: ServiceProcess, id: String) -> JSONValue? {
        server.waitForLog { $0["msg"]?.stringValue == "request" && $0["request_id"]?.stringValue == id }
    }

    @Test func everyStdoutLineIsAJSONObjectAndRequestLinesHaveTheirFields() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)

        let response = try tenant.request(
            "GET", "/api/live_activity_schemas/FlightAttributes/1?application=\(tenant.code)",
            headers: [("X-Request-Id", "abc-123")])
        #expect(response.status == 200)
        #expect(response.header("x-request-id") == "abc-123")
        let line = try #require(requestLine(server, id: "abc-123"), "\(server.diagnostics)")
        #expect(line["level"]?.stringValue == "info")
        let time = try #require(line["time"]?.stringValue)
        #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/) != nil, "RFC 3339 UTC: \(time)")
        #expect(line["method"]?.stringValue == "GET")
        #expect(line["route"]?.stringValue == Self.getRoute, "the template, not the path")
        #expect(line["status"]?.int == 200)
        #expect(line["duration_ms"]?.doubleValue.map { $0 >= 0 } == true, "\(line)")
        #expect(line["bytes"]?.int == response.body.count, "\(line)")
        #expect(line["application"]?.stringValue == tenant.code)

        // An unauthenticated call still gets a line, with its status.
        let refused = try tenant.request(
            "GET", "/api/live_activity_schemas?application=\(tenant.code)", token: .none,
            headers: [("X-Request-Id", "no-token-1")])
        #expect(refused.status == 401)
        #expect(requestLine(server, id: "no-token-1")?["status"]?.int == 401)

        let lines = server.stdoutLines
        #expect(lines.count >= 3)
        for line in lines {
            let parsed = try? JSONParser.parse(Array(line.utf8))
            #expect(parsed?.objectValue != nil, "not a JSON object: \(line)")
            #expect(parsed?["time"]?.stringValue != nil && parsed?["level"]?.stringValue != nil, "\(line)")
        }
    }

    @Test func unsafeOrOverlongRequestIdsAreReplacedByAGeneratedOne() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let overlong = String(repeating: "a", count: 200)
        for incoming in [overlong, "abc 123", "x\"}{\"injected\":\"1", "naïve-id", "<script>"] {
            let response = try RawHTTPClient.send(port: server.port, target: "/healthz", headers: [("X-Request-Id", incoming)])
            #expect(response.status == 200)
            let id = try #require(response.header("x-request-id"), "\(incoming)")
            #expect(id != incoming, "\(incoming) was kept")
            #expect(id.wholeMatch(of: /[A-Za-z0-9._:-]{8,128}/) != nil, "a generated id: \(id)")
            #expect(requestLine(server, id: id) != nil, "the log uses the generated id \(id)")
        }
        #expect(!server.stdout.contains(overlong) && !server.stdout.contains("injected"))
        // Without a header an id is generated too, and ids differ between requests.
        let ids = try (0..<2).map { _ in
            try #require(RawHTTPClient.send(port: server.port, target: "/healthz").header("x-request-id"))
        }
        #expect(ids[0] != ids[1])
    }

    @Test func startupLineShowsTheEffectiveConfigurationWithThePasswordMasked() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.tcpURL(password: "s3cret"), [
            "REGISTRY_LOG_LEVEL": "info", "REGISTRY_SHUTDOWN_GRACE_SECONDS": "7",
        ]))
        defer { server.kill() }
        let startup = try #require(server.logObjects.first { $0["msg"]?.stringValue == "serving" }, "\(server.diagnostics)")
        let url = try #require(startup["database_url"]?.stringValue, "\(startup)")
        #expect(!url.contains("s3cret"))
        for field in ["user=postgres", "host=127.0.0.1", "port=\(database.cluster.port)", "dbname=\(database.name)", "password=*****"] {
            #expect(url.split(separator: " ").contains { $0 == field }, "\(field) in \(url)")
        }
        #expect(startup["port"]?.int == server.port)
        #expect(startup["shutdown_grace_seconds"]?.stringValue == "7" || startup["shutdown_grace_seconds"]?.int == 7)
        #expect(startup["version"]?.stringValue?.isEmpty == false)
        // It really used that URL (the password is only masked in the log).
        let tenant = try database.makeTenant(port: server.port)
        #expect(try tenant.publish("FlightAttributes", flightSchema()).status == 200)
        #expect(!server.stdout.contains("s3cret") && !server.stderr.contains("s3cret"), "\(server.diagnostics)")
    }

    @Test func startupLineHasAFieldForEveryVariableHelpLists() throws {
        let help = try ServiceProcess.run(["help"], environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        let variables = help.stdoutLines.drop { $0 != "Environment:" }.dropFirst()
            .compactMap { $0.firstMatch(of: /^  ((?:REGISTRY_|DATABASE_)[A-Z_]+)\s/).map { String($0.output.1) } }
        #expect(variables.count >= 27, "read the variables from help: \(variables)")
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, ["REGISTRY_DB_STATEMENT_TIMEOUT_MS": "4321"]))
        defer { server.kill() }
        let startup = try #require(server.logObjects.first { $0["msg"]?.stringValue == "serving" }, "\(server.diagnostics)")
        for variable in variables {
            let field = (variable.hasPrefix("REGISTRY_") ? String(variable.dropFirst("REGISTRY_".count)) : variable).lowercased()
            #expect(startup[field]?.stringValue?.isEmpty == false, "\(field) for \(variable) in \(startup)")
        }
        #expect(startup["db_statement_timeout_ms"]?.stringValue == "4321", "\(startup)")
    }

    /// Every spelling of the password libpq accepts, besides `user:secret@` above.
    static let passwordSpellings = [
        "postgresql://postgres@127.0.0.1:PORT/DB?password=q-s3cret",
        "host=127.0.0.1 port=PORT dbname=DB user=postgres password=kv-s3cret",
        "host=127.0.0.1 port=PORT dbname=DB user=postgres password = kv-s3cret",
        "host=127.0.0.1 port=PORT dbname=DB user=postgres password='kv s3cret'",
    ]

    @Test(arguments: passwordSpellings)
    func everySpellingOfThePasswordIsMasked(_ spelling: String) throws {
        let database = try ServiceDatabase.make()
        let url = spelling.replacing("PORT", with: String(database.cluster.port)).replacing("DB", with: database.name)
        let server = try ServiceProcess.serve(environment: serveEnvironment(url))
        defer { server.kill() }
        #expect(!server.stdout.contains("s3cret") && !server.stderr.contains("s3cret"), "\(server.diagnostics)")
        let startup = try #require(server.logObjects.first { $0["msg"]?.stringValue == "serving" }, "\(server.diagnostics)")
        let shown = try #require(startup["database_url"]?.stringValue, "\(startup)")
        #expect(shown.contains("dbname=\(database.name)") && shown.contains("password=*****"), "\(shown)")
        #expect(try RawHTTPClient.send(port: server.port, target: "/readyz").status == 200)
    }

    @Test func noTokenAndNoRequestBodyTextEverAppearsInTheLogs() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url, ["REGISTRY_LOG_LEVEL": "debug"]))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let other = try database.makeTenant(port: server.port)
        let marker = "body-marker-\(UUID().uuidString)"

        // Successes and every kind of failure, each carrying the marker or a token.
        let collection = "/api/live_activity_schemas"
        let list = "\(collection)?application=\(tenant.code)"
        let version1 = "\(collection)/FlightAttributes/1?application=\(tenant.code)"
        let unknownApplication = #"{"application":"NOAPP-00000","attributesType":"\#(marker)","jsonSchema":"{}"}"#
        #expect(try tenant.publish("FlightAttributes", flightSchema(marker: marker)).status == 200)
        #expect(try tenant.publish("FlightAttributes", flightSchema(marker: marker), version: 1).status == 409)
        #expect(try tenant.publish("FlightAttributes", #"{"type":"array","description":"\#(marker)"}"#).status == 400)
        #expect(try tenant.publish("FlightAttributes", #"{"type":"object","description":"\#(marker)""#).status == 400)
        #expect(try tenant.request("POST", collection, body: #"{"\#(marker)": ["#).status == 400)
        #expect(try tenant.request("POST", collection, body: unknownApplication).status == 404)
        #expect(try other.publish("FlightAttributes", flightSchema(marker: marker)).status == 200)
        #expect(try tenant.request("GET", "\(collection)?application=\(other.code)").status == 403)
        #expect(try tenant.request("GET", version1).status == 200)
        #expect(try tenant.request("GET", list, token: .some(tenant.token + "x")).status == 401)
        #expect(try tenant.request("GET", list, token: .some(marker)).status == 401)
        #expect(try tenant.request("DELETE", version1).status == 200)
        // An oversized body is refused by the HTTP layer, which logs too.
        let filler = String(repeating: marker, count: 1_100_000 / marker.count)
        _ = try? tenant.request("POST", collection, body: #"{"application":"\#(tenant.code)","jsonSchema":"\#(filler)"}"#)

        // Let the last lines land, then stop the server so everything is flushed.
        #expect(server.waitForLog { $0["method"]?.stringValue == "DELETE" } != nil)
        server.send(SIGTERM)
        #expect(server.waitForExit(timeoutSeconds: 15) == 0, "\(server.diagnostics)")
        let everything = server.stdout + server.stderr
        #expect(everything.contains("\"request\""), "the requests were logged")
        for secret in [tenant.token, other.token, String(tenant.token.dropFirst(4)), marker] {
            #expect(!everything.contains(secret), "the logs contain \(secret)")
        }
    }

    @Test func anApplicationCodeThatNamesNoApplicationIsNotLogged() throws {
        // The `application` field of a request line is for the application a request was about;
        // a code that names none is only client-supplied text (up to the 1 MiB body limit) and
        // must not be copied into the logs.
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let marker = "no-such-app-\(UUID().uuidString)" + String(repeating: "x", count: 4000)
        let viaBody = try tenant.request(
            "POST", "/api/live_activity_schemas",
            body: #"{"application":"\#(marker)","attributesType":"T","jsonSchema":"{\"type\":\"object\"}"}"#,
            headers: [("X-Request-Id", "unknown-app-body")])
        #expect(viaBody.status == 404)
        let viaQuery = try tenant.request(
            "GET", "/api/live_activity_schemas?application=\(marker)", headers: [("X-Request-Id", "unknown-app-query")])
        #expect(viaQuery.status == 404)
        for id in ["unknown-app-body", "unknown-app-query"] {
            let line = try #require(requestLine(server, id: id), "\(server.diagnostics)")
            #expect(line["status"]?.int == 404)
            let logged = line["application"]?.stringValue.map { String($0.prefix(48)) + "…" }
            #expect(logged == nil, "request \(id) logged the unknown code as its application")
        }
        let leaked = server.stdout.contains(marker.prefix(48))
        #expect(!leaked, "the unknown code is in the logs")
    }
}
