import Foundation

/// `build-info-tool PACKAGE_DIR OUTPUT.swift`: writes the commit of PACKAGE_DIR's checkout as
/// Swift source, reading git's files directly (no git binary needed, works in worktrees and
/// with packed refs); "unknown" outside a checkout, such as a Docker build context.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: build-info-tool PACKAGE_DIR OUTPUT.swift\n".utf8))
    exit(2)
}

func read(_ path: String) -> String? {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The git directory of a checkout: `.git` itself, or where a worktree's `.git` file points.
func gitDirectory(of root: String) -> String? {
    let dotGit = root + "/.git"
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dotGit, isDirectory: &isDirectory) else { return nil }
    if isDirectory.boolValue { return dotGit }
    guard let text = read(dotGit), text.hasPrefix("gitdir: ") else { return nil }
    let path = String(text.dropFirst("gitdir: ".count))
    return path.hasPrefix("/") ? path : root + "/" + path
}

func commit(of root: String) -> String? {
    guard let gitDir = gitDirectory(of: root), let head = read(gitDir + "/HEAD") else { return nil }
    guard head.hasPrefix("ref: ") else { return head }
    let ref = String(head.dropFirst("ref: ".count))
    let common = read(gitDir + "/commondir").map { $0.hasPrefix("/") ? $0 : gitDir + "/" + $0 } ?? gitDir
    for directory in [gitDir, common] {
        if let sha = read(directory + "/" + ref) { return sha }
        let packed = read(directory + "/packed-refs") ?? ""
        for line in packed.split(separator: "\n") where line.hasSuffix(" " + ref) {
            return String(line.prefix { $0 != " " })
        }
    }
    return nil
}

let sha = commit(of: arguments[1]).flatMap { $0.allSatisfy(\.isHexDigit) ? $0 : nil } ?? "unknown"
let source = """
    /// Generated at build time by BuildInfoPlugin.
    enum GeneratedBuildInfo {
        static let commit = "\(sha)"
    }

    """
try source.write(toFile: arguments[2], atomically: true, encoding: .utf8)
