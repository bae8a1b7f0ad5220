import Foundation

/// Where the repository and the shared project folder are, for tests that read fixtures.
public enum TestPaths {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the checkout (CI lays a copy there), or `SHARED_DIR` when set.
    public static var shared: URL {
        if let dir = ProcessInfo.processInfo.environment["SHARED_DIR"] { return URL(fileURLWithPath: dir) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// A fixture under `Tests/Fixtures`.
    public static func fixture(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(relativePath)
    }
}
