import Registry

/// The control panel's files, embedded in the binary so `/panel/` needs no CDN, no build step
/// and no files beside the executable. They are ordinary files in `Panel/assets/`, turned into
/// Swift source at build time by EmbeddedFilesPlugin; this file gives their content types.
///
/// The JavaScript is a handful of small ES modules loaded by `index.html`: `dom.js` (element
/// helpers), `api.js` (the registry's HTTP API, the token in `sessionStorage`, every 401 to one
/// handler), `json-text.js` (pretty JSON keeping the published order), `form-render.js` (form
/// descriptor → inputs), `version-view.js` (with `try-values.js`, `check-values.js`,
/// `push-preview.js`, `problem-words.js`, `diff-view.js`, `policy-view.js` and their helpers),
/// `publish-view.js` (with `drafts.js` and `draft-diff.js`), `webhooks-view.js` (with
/// `webhook-form.js`, `webhook-page.js` and `webhook-deliveries.js`), `sidebar.js`, `token-status.js`,
/// `dialogs.js`, `router.js`, `workspace.js` and `app.js` (sign-in and sign-out).
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

    /// Every file of `Panel/assets/` by name (the build accepts only `.html`, `.css` and `.js`).
    static let files: [String: Asset] = Dictionary(
        uniqueKeysWithValues: GeneratedPanelAssets.files.map { ($0.name, Asset(contentType(of: $0.name), $0.text)) })

    static func contentType(of name: String) -> String {
        name.hasByteSuffix(".css") ? css : name.hasByteSuffix(".js") ? javaScript : html
    }

    /// The asset served under `/panel/<name>`; `""` (the bare `/panel/`) is the index page.
    static func asset(named name: String) -> (contentType: String, body: [UInt8])? {
        entry(named: name).map { ($0.contentType, $0.body) }
    }

    static func entry(named name: String) -> Asset? {
        files[name.isEmpty ? "index.html" : name]
    }
}
