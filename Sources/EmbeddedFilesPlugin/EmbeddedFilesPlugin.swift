import Foundation
import PackagePlugin

/// Embeds a target's plain-file folders into it as Swift source, so those files are edited as
/// ordinary files and the service stays one binary: the control panel's `Panel/assets`
/// (`GeneratedPanelAssets`) and the SQL statements in `SQL` (`GeneratedSQLFiles`). Each folder
/// the target has gets one command, rerun when any of its files (or its list of files) changes.
@main
struct EmbeddedFilesPlugin: BuildToolPlugin {
    /// A folder of the target (relative to Sources/TARGET), the file extensions it may hold and
    /// the generated enum that lists them.
    private static let folders: [(path: String, extensions: [String], typeName: String)] = [
        ("Panel/assets", ["html", "css", "js"], "GeneratedPanelAssets"),
        ("SQL", ["sql"], "GeneratedSQLFiles"),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "embedded-files-tool")
        // The target's folder by SwiftPM's convention (Sources/NAME); `Target.directoryURL`
        // needs tools version 6.1.
        let root = context.package.directoryURL.appendingPathComponent("Sources/\(target.name)")
        return try Self.folders.compactMap { folder in
            let directory = root.appendingPathComponent(folder.path)
            guard FileManager.default.fileExists(atPath: directory.path) else { return nil }
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(folder.typeName).swift")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { !$0.hasPrefix(".") }
                .map { directory.appendingPathComponent($0) }
            return .buildCommand(
                displayName: "Embedding the files of \(target.name)/\(folder.path)",
                executable: tool.url,
                arguments: [directory.path, output.path, folder.typeName, folder.extensions.joined(separator: ",")],
                inputFiles: [directory] + files,
                outputFiles: [output])
        }
    }
}
