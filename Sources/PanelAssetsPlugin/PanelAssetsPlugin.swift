import Foundation
import PackagePlugin

/// Embeds the control panel's files (`Sources/TARGET/Panel/assets/*.html|css|js`) into the
/// target as Swift source, so the panel is edited as ordinary files and the service stays one
/// binary. It reruns when any of those files (or the folder's list of files) changes.
@main
struct PanelAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "panel-assets-tool")
        // The target's folder by SwiftPM's convention (Sources/NAME); `Target.directoryURL`
        // needs tools version 6.1.
        let assets = context.package.directoryURL.appendingPathComponent("Sources/\(target.name)/Panel/assets")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedPanelAssets.swift")
        let files = try FileManager.default.contentsOfDirectory(atPath: assets.path)
            .filter { !$0.hasPrefix(".") }
            .map { assets.appendingPathComponent($0) }
        return [
            .buildCommand(
                displayName: "Embedding the control panel's files",
                executable: tool.url,
                arguments: [assets.path, output.path],
                inputFiles: [assets] + files,
                outputFiles: [output])
        ]
    }
}
