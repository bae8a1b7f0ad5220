import Foundation
import HTTPServer
import Registry
import Testing
import TestSupport

@testable import RegistryAPI

/// The control panel's embedded files: what the page loads exists, nothing needs inline code
/// (the Content-Security-Policy forbids it), and the handler sends the security headers.
/// The browser test (`Tests/Browser/run.sh`) checks the panel itself.
@Suite struct PanelAssetsTests {
    static func text(_ name: String) -> String {
        String(decoding: PanelAssets.asset(named: name)?.body ?? [], as: UTF8.self)
    }

    static var javaScriptNames: [String] { PanelAssets.files.keys.filter { $0.hasSuffix(".js") }.sorted() }

    /// The values of `attribute="…"` in `html`.
    static func attributeValues(_ attribute: String, in html: String) -> [String] {
        html.components(separatedBy: "\(attribute)=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    /// The panel is edited as files in `Sources/RegistryAPI/Panel/assets/`; the binary serves
    /// exactly their bytes, and nothing else.
    @Test func theEmbeddedBytesAreTheFilesInTheAssetsFolder() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Sources/RegistryAPI/Panel/assets")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names.count >= 10, "\(names)")
        #expect(PanelAssets.files.keys.sorted() == names)
        for name in names {
            let file = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(PanelAssets.files[name]?.body == Array(file), "\(name) is served as it is in the folder")
        }
    }

    @Test func theBarePanelPathIsTheIndexPage() throws {
        let bare = try #require(PanelAssets.asset(named: ""))
        let index = try #require(PanelAssets.asset(named: "index.html"))
        #expect(bare.body == index.body)
        #expect(bare.contentType == "text/html; charset=utf-8")
        #expect(PanelAssets.asset(named: "nope.js") == nil)
        #expect(PanelAssets.asset(named: "../Package.swift") == nil)
    }

    @Test func contentTypesFollowTheExtension() throws {
        for (name, asset) in PanelAssets.files {
            let expected = name.hasSuffix(".js") ? "text/javascript; charset=utf-8"
                : name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/html; charset=utf-8"
            #expect(asset.contentType == expected, "\(name)")
            #expect(!asset.body.isEmpty, "\(name)")
        }
    }

    @Test func everythingTheIndexPageLoadsIsServed() {
        let html = Self.text("index.html")
        let references = (Self.attributeValues("src", in: html) + Self.attributeValues("href", in: html))
            .filter { !$0.hasPrefix("data:") && !$0.hasPrefix("#") }
        #expect(references.contains("app.js"))
        #expect(references.contains("panel.css"))
        for reference in references {
            #expect(PanelAssets.asset(named: reference) != nil, "index.html loads \(reference), which is not served")
        }
    }

    @Test func everyImportedModuleIsServed() {
        for name in Self.javaScriptNames {
            for line in Self.text(name).split(separator: "\n") where line.hasPrefix("import ") {
                guard let from = line.range(of: "from './") else {
                    Issue.record("\(name): import not relative to the panel: \(line)")
                    continue
                }
                let module = line[from.upperBound...].prefix { $0 != "'" }
                #expect(PanelAssets.asset(named: String(module)) != nil, "\(name) imports \(module), which is not served")
            }
        }
    }

    @Test func noInlineScriptsOrStyles() {
        let html = Self.text("index.html")
        #expect(!html.contains("<script>"), "inline <script>")
        #expect(!html.contains("<style"), "inline <style>")
        #expect(!html.contains(" style="), "style attribute")
        #expect(html.firstMatch(of: try! Regex(#"\son[a-z]+\s*="#)) == nil, "inline event handler attribute")
        for name in Self.javaScriptNames {
            let script = Self.text(name)
            for forbidden in ["innerHTML", "outerHTML =", "insertAdjacentHTML", "eval(", "new Function", "setAttribute('style'", "localStorage.setItem"] {
                #expect(!script.contains(forbidden), "\(name) uses \(forbidden)")
            }
        }
    }

    @Test func theTokenStaysInSessionStorageAndUsesTheApiScheme() {
        let api = Self.text("api.js")
        #expect(api.contains("sessionStorage.setItem"))
        #expect(api.contains("`Api ${token}`"))
    }

    // MARK: - the handler, through the real routing (`GET /panel/{asset}`, no token)

    static let api = RegistryAPI(store: nil)

    static func get(_ asset: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        api.handle(HTTPRequest(method: "GET", path: "/panel/\(asset)", headers: headers))
    }

    static func header(_ name: String, _ response: HTTPResponse) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    @Test func assetsCarryTheSecurityHeaders() throws {
        #expect(Self.get("").status == 200, "the bare /panel/ is the index page")
        for name in ["", "app.js", "panel.css"] {
            let response = Self.get(name)
            #expect(response.status == 200)
            #expect(response.body == PanelAssets.asset(named: name)?.body)
            #expect(Self.header("Content-Security-Policy", response) ==
                "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
            #expect(Self.header("X-Content-Type-Options", response) == "nosniff")
            #expect(Self.header("Cache-Control", response) == "no-cache")
            #expect(Self.header("Content-Type", response) == PanelAssets.asset(named: name)?.contentType)
            #expect(response.headers.filter { $0.name.lowercased() == "etag" }.count == 1)
            let etag = try #require(Self.header("ETag", response))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 2)
        }
    }

    @Test func anUnknownAssetIsNotFound() {
        let response = Self.get("secret.txt")
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self).contains(#"no such panel file: \"secret.txt\""#))
    }

    @Test func aMatchingIfNoneMatchIsNotModified() throws {
        let etag = try #require(Self.header("ETag", Self.get("app.js")))
        for condition in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let response = Self.get("app.js", headers: [(name: "if-none-match", value: condition)])
            #expect(response.status == 304, "\(condition)")
            #expect(response.body.isEmpty)
            #expect(Self.header("ETag", response) == etag)
        }
        let other = Self.get("app.js", headers: [(name: "if-none-match", value: "\"other\"")])
        #expect(other.status == 200)
    }

    @Test func everyAssetHasItsOwnTag() {
        let tags = PanelAssets.files.values.map(\.etag)
        #expect(Set(tags).count == tags.count)
    }
}
