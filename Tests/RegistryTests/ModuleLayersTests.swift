import Foundation
import Testing
import TestSupport

/// The layers, read from the sources' `import` lines: each module imports only the project
/// modules below it, the domain knows no HTTP or storage, and the Swift reader, which only a
/// CLI command uses, stays out of every server module.
@Suite struct ModuleLayersTests {
    /// The project modules each module may import. System modules (Foundation, Glibc, ...) are
    /// not listed: only names that are folders of `Sources/` count.
    static let allowed: [String: Set<String>] = [
        "Striping": [],
        // epoll and eventfd only, wrapped by one file (see below).
        "EventLoop": ["CEpoll"],
        // libcrypto's SHA-256 only, wrapped by one file (see below).
        "Registry": ["CLibCrypto"],
        "SwiftReader": ["Registry"],
        "RegistryPostgres": ["Registry", "CLibPQ", "EventLoop"],
        "HTTPServer": ["CMicroHTTPD", "Striping", "EventLoop"],
        "RegistryAPI": ["Registry", "HTTPServer", "Striping"],
    ]

    static let sources = TestPaths.packageRoot.appendingPathComponent("Sources")

    /// The project modules `module`'s Swift files import.
    static func imports(of module: String) throws -> Set<String> {
        let projectModules = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path))
        let folder = sources.appendingPathComponent(module)
        var found: Set<String> = []
        let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        for path in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { $0 != "@testable" }
                if words.count == 2, words[0] == "import", projectModules.contains(String(words[1])) {
                    found.insert(String(words[1]))
                }
            }
        }
        return found
    }

    @Test(arguments: allowed.keys.sorted())
    func aModuleImportsOnlyTheModulesBelowIt(module: String) throws {
        let imported = try Self.imports(of: module)
        #expect(imported.subtracting(Self.allowed[module]!).isEmpty, "\(module) imports \(imported.sorted())")
    }

    @Test func onlyTheExecutableUsesTheSwiftReader() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { $0 != "SwiftReader" && $0 != "schema-registry" }
        for module in modules {
            #expect(try !Self.imports(of: module).contains("SwiftReader"), "\(module) imports SwiftReader")
        }
        #expect(try Self.imports(of: "schema-registry").contains("SwiftReader"))
    }

    /// Each C library sits behind one small wrapper: the files that import it.
    @Test(arguments: [("CLibCrypto", "Registry", ["Crypto/AES256GCM.swift", "Crypto/HMACSHA256.swift", "Crypto/SHA256.swift"]), ("CEpoll", "EventLoop", ["EventLoop.swift"])])
    func aCLibraryHasOneWrapper(library: String, module: String, wrappers: [String]) throws {
        let folder = Self.sources.appendingPathComponent(module)
        let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        var importing: [String] = []
        for path in paths.sorted() where path.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            if text.split(separator: "\n").contains(where: { $0 == "import \(library)" }) { importing.append(path) }
        }
        #expect(importing == wrappers)
    }
}
