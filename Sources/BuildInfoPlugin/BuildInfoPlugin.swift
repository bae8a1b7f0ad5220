import Foundation
import PackagePlugin

/// Records the git commit the executable is built from (for `version`, the start-up log and
/// `registry_build_info`). It reruns when HEAD moves: its inputs are the files git rewrites on
/// every commit and checkout.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "build-info-tool")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedBuildInfo.swift")
        let root = context.package.directoryURL
        let git = root.appendingPathComponent(".git")
        let inputs = ["", "HEAD", "logs/HEAD", "packed-refs"]
            .map { $0.isEmpty ? git : git.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        return [
            .buildCommand(
                displayName: "Recording the git commit",
                executable: tool.url,
                arguments: [root.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
