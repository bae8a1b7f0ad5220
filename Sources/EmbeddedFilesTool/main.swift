import Foundation

/// `embedded-files-tool DIR OUTPUT.swift TYPE EXT[,EXT…]`: writes every file of DIR as a Swift
/// string literal in `enum TYPE { static let files: [(name: String, text: String)] }`, so files
/// such as the control panel's and the SQL statements are edited as ordinary files yet built
/// into the one binary. The literal holds the file's exact text: a file that is not UTF-8 or has
/// a carriage return (which a Swift literal would turn into a line feed) or whose extension is
/// not one of EXT stops the build with one line naming it.
let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: embedded-files-tool DIR OUTPUT.swift TYPE EXT[,EXT…]\n".utf8))
    exit(2)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("embedded-files-tool: \(message)\n".utf8))
    exit(1)
}

let directory = URL(fileURLWithPath: arguments[1])
let typeName = arguments[3]
let allowedExtensions = arguments[4].split(separator: ",").map(String.init)
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
    guard let dot = name.lastIndex(of: "."), allowedExtensions.contains(String(name[name.index(after: dot)...])) else {
        let list = allowedExtensions.map { "." + $0 }.joined(separator: ", ")
        fail("\(name): only \(list) files belong in \(directory.lastPathComponent)/")
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
    /// Generated at build time by EmbeddedFilesPlugin from the files in \(directory.lastPathComponent)/.
    enum \(typeName) {
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
