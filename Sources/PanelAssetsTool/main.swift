import Foundation

/// `panel-assets-tool ASSETS_DIR OUTPUT.swift`: writes every `.html`, `.css` and `.js` file of
/// ASSETS_DIR as a Swift string literal, so the control panel is edited as ordinary files yet
/// served from the one binary. The literal holds the file's exact text: a file that is not
/// UTF-8 or has a carriage return (which a Swift literal would turn into a line feed) or any
/// other kind of file stops the build with one line naming it.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: panel-assets-tool ASSETS_DIR OUTPUT.swift\n".utf8))
    exit(2)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("panel-assets-tool: \(message)\n".utf8))
    exit(1)
}

let directory = URL(fileURLWithPath: arguments[1])
let servedExtensions: Set<String> = ["html", "css", "js"]
let names: [String]
do {
    names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
} catch {
    fail("cannot list \(directory.path)")
}

/// A raw-string delimiter (`#`, `##`, …) that no quote or backslash in `text` is followed by.
func delimiter(for text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return hashes
}

var entries: [String] = []
for name in names {
    guard let dot = name.lastIndex(of: "."), servedExtensions.contains(String(name[name.index(after: dot)...])) else {
        fail("\(name): only .html, .css and .js files are served from \(directory.lastPathComponent)/")
    }
    guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
        fail("cannot read \(name)")
    }
    guard let text = String(data: data, encoding: .utf8), Array(text.utf8) == Array(data) else { fail("\(name) is not UTF-8") }
    guard !text.utf8.contains(13) else { fail("\(name) has a carriage return; use line feeds only") }
    let hashes = delimiter(for: text)
    entries.append("        (\"\(name)\", \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),\n")
}

let source = """
    /// Generated at build time by PanelAssetsPlugin from the files in Panel/assets.
    enum GeneratedPanelAssets {
        static let files: [(name: String, text: String)] = [

    """ + entries.joined() + """
        ]
    }

    """
do {
    try source.write(toFile: arguments[2], atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(arguments[2])")
}
