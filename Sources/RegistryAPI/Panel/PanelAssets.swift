import Registry

/// The control panel's files (issue 7), embedded in the binary so `/panel/` needs no CDN, no
/// build step and no files beside the executable. Each asset's text lives in its own
/// `PanelAssets+….swift` file; this file only names them and gives their content types.
///
/// The JavaScript is a handful of small ES modules loaded by `index.html`: `dom.js` (element
/// helpers), `api.js` (the registry's HTTP API, the token in `sessionStorage`), `json-text.js`
/// (pretty JSON keeping the published order), `form-render.js` (form descriptor → inputs),
/// `version-view.js`, `publish-view.js`, `dialogs.js` and `app.js` (sign-in, application,
/// types and versions).
enum PanelAssets {
    /// One served file with its precomputed strong entity tag.
    struct Asset: Sendable {
        let contentType: String
        let body: [UInt8]
        let etag: String

        init(_ contentType: String, _ text: String) {
            self.contentType = contentType
            body = Array(text.utf8)
            etag = EntityTag.of(body)
        }
    }

    static let html = "text/html; charset=utf-8"
    static let css = "text/css; charset=utf-8"
    static let javaScript = "text/javascript; charset=utf-8"

    static let files: [String: Asset] = [
        "index.html": Asset(html, indexHTML),
        "panel.css": Asset(css, panelCSS),
        "dom.js": Asset(javaScript, domJS),
        "api.js": Asset(javaScript, apiJS),
        "json-text.js": Asset(javaScript, jsonTextJS),
        "form-render.js": Asset(javaScript, formRenderJS),
        "version-view.js": Asset(javaScript, versionViewJS),
        "publish-view.js": Asset(javaScript, publishViewJS),
        "dialogs.js": Asset(javaScript, dialogsJS),
        "app.js": Asset(javaScript, appJS),
    ]

    /// The asset served under `/panel/<name>`; `""` (the bare `/panel/`) is the index page.
    static func asset(named name: String) -> (contentType: String, body: [UInt8])? {
        entry(named: name).map { ($0.contentType, $0.body) }
    }

    static func entry(named name: String) -> Asset? {
        files[name.isEmpty ? "index.html" : name]
    }
}
