import Foundation
import RegistryAPI
import Testing
import TestSupport

/// `openapi.yaml` is the API contract: every operation it documents is routed, and every route
/// is documented. Routes being built in parallel are listed in `pendingRoutes` until they land;
/// the list must shrink as they do, so it can never hide a route that is really served.
@Suite struct OpenAPIRoutesTests {
    /// Documented in `openapi.yaml` but not yet in `RegistryAPI.routeTable`. Remove an entry in
    /// the change that routes it: a pending route that is routed fails the test.
    static let pendingRoutes: Set<String> = [
    ]

    /// Routes deliberately left out of the contract: the control panel's HTML pages are for
    /// people, not API clients (`openapi.yaml`'s description says so).
    static let undocumentedPathPrefixes = ["/panel"]

    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    static var openAPIFile: URL { TestPaths.packageRoot.appendingPathComponent("openapi.yaml") }

    static func routed() -> Set<String> { Set(RegistryAPI.routeTable) }

    static func isExempt(_ operation: String) -> Bool {
        guard let path = operation.split(separator: " ", maxSplits: 1).last else { return false }
        return undocumentedPathPrefixes.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// `METHOD /path` for every operation in `openapi.yaml`, read line by line: under the
    /// top-level `paths:` key, path keys are indented exactly 2 spaces and operation keys
    /// exactly 4. Also returns lines that break that layout.
    static func documentedOperations(in text: String) -> (operations: [String], problems: [String]) {
        var operations: [String] = []
        var problems: [String] = []
        var inPaths = false
        var currentPath: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let content = line.drop { $0 == " " }
            if content.isEmpty || content.hasPrefix("#") { continue }
            let indent = line.count - content.count
            if indent == 0 {
                inPaths = content == "paths:"
                currentPath = nil
                continue
            }
            guard inPaths else { continue }
            if indent == 2 {
                let key = content.hasSuffix(":") ? unquoted(content.dropLast()) : ""
                guard key.hasPrefix("/") else {
                    problems.append("line \(index + 1): expected a path key such as '  /api/x:', got '\(line)'")
                    currentPath = nil
                    continue
                }
                currentPath = key
            } else if indent == 4, let path = currentPath {
                let key = content.prefix { $0 != ":" }
                guard methods.contains(String(key)) else { continue }
                guard content == key + ":" else {
                    problems.append("line \(index + 1): write the operation key alone on its line ('    \(key):')")
                    continue
                }
                operations.append("\(key.uppercased()) \(path)")
            }
        }
        return (operations, problems)
    }

    static func unquoted(_ text: Substring) -> String {
        var key = text
        if key.count >= 2, let first = key.first, first == "'" || first == "\"", key.last == first {
            key = key.dropFirst().dropLast()
        }
        return String(key)
    }

    static func readDocumented() throws -> [String] {
        let text = try String(contentsOf: openAPIFile, encoding: .utf8)
        let (operations, problems) = documentedOperations(in: text)
        for problem in problems { Issue.record("openapi.yaml: \(problem)") }
        #expect(!operations.isEmpty, "no operations found under 'paths:' in openapi.yaml")
        #expect(Set(operations).count == operations.count, "an operation is listed twice: \(operations)")
        return operations
    }

    @Test func everyRoutedOperationIsDocumented() throws {
        let documented = Set(try Self.readDocumented())
        let undocumented = Self.routed().filter { !documented.contains($0) && !Self.isExempt($0) }
        #expect(undocumented.isEmpty, "routed but missing from openapi.yaml: \(undocumented.sorted())")

        let landed = Self.pendingRoutes.intersection(Self.routed())
        #expect(landed.isEmpty, "routed now; remove from pendingRoutes: \(landed.sorted())")
    }

    @Test func everyDocumentedOperationIsRouted() throws {
        let documented = Set(try Self.readDocumented())
        let missing = documented.subtracting(Self.routed()).subtracting(Self.pendingRoutes)
        #expect(missing.isEmpty, "documented in openapi.yaml but neither routed nor pending: \(missing.sorted())")

        let stale = Self.pendingRoutes.subtracting(documented)
        #expect(stale.isEmpty, "pendingRoutes lists operations openapi.yaml does not document: \(stale.sorted())")
    }

    /// A real YAML parser agrees: the file parses, is OpenAPI 3.1, every `$ref` resolves, every
    /// path parameter is declared, every error response under `/api/` uses the shared Error schema, and the
    /// operations are exactly the ones the line reader above finds.
    @Test func openAPIFileParsesAsYAML() throws {
        guard let python = Self.pythonWithYAML() else {
            Issue.record("""
                python3 with PyYAML is needed to parse openapi.yaml and was not found on PATH or at \
                /usr/bin/python3; install it with 'apt-get install -y python3-yaml'
                """)
            return
        }
        let result = try Self.run(python, ["-c", Self.checkScript, Self.openAPIFile.path])
        guard result.status == 0 else {
            Issue.record("openapi.yaml does not load with \(python) + PyYAML:\n\(result.stderr)")
            return
        }
        struct Report: Decodable {
            let operations: [String]
            let problems: [String]
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        for problem in report.problems { Issue.record("openapi.yaml: \(problem)") }
        #expect(report.operations.sorted() == (try Self.readDocumented()).sorted(),
                "the line reader and PyYAML disagree on the operations; keep paths at 2 spaces, methods at 4")
    }

    /// The first `python3` (on PATH, then `/usr/bin/python3`) that can import PyYAML.
    static func pythonWithYAML() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        var candidates = path.split(separator: ":").map { "\($0)/python3" }
        candidates.append("/usr/bin/python3")
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if let result = try? run(candidate, ["-c", "import yaml"]), result.status == 0 { return candidate }
        }
        return nil
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    static let checkScript = #"""
import sys, json, re, yaml

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
problems = []

def resolve(ref):
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    node = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node

def deref(node):
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 20:
        node = resolve(node["$ref"])
        seen += 1
    return node

def walk(node, where):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and resolve(value) is None:
                problems.append("%s: $ref %r does not resolve" % (where, value))
            walk(value, "%s/%s" % (where, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            walk(value, "%s/%d" % (where, i))

operations = []
if not isinstance(doc, dict):
    problems.append("the document is not a mapping")
    doc = {}
if not str(doc.get("openapi", "")).startswith("3.1"):
    problems.append("openapi must be 3.1.x, is %r" % doc.get("openapi"))
walk(doc, "#")
for path, item in (doc.get("paths") or {}).items():
    item = item or {}
    for method, op in item.items():
        if method not in METHODS:
            continue
        name = "%s %s" % (method.upper(), path)
        operations.append(name)
        declared = set()
        for p in (item.get("parameters") or []) + (op.get("parameters") or []):
            p = deref(p) or {}
            if p.get("in") == "path":
                declared.add(p.get("name"))
        for param in re.findall("{([^}]+)}", path):
            if param not in declared:
                problems.append("%s: path parameter %s is not declared" % (name, param))
        responses = op.get("responses") or {}
        if not responses:
            problems.append("%s: no responses" % name)
        for status, response in responses.items():
            if not path.startswith("/api/") or str(status)[0] not in "45":
                continue
            schema = (((deref(response) or {}).get("content") or {}).get("application/json") or {}).get("schema") or {}
            if schema.get("$ref") != "#/components/schemas/Error":
                problems.append("%s: response %s does not use the Error schema" % (name, status))
print(json.dumps({"operations": operations, "problems": problems}))
"""#
}
