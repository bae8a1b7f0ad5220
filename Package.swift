// swift-tools-version:6.0
import PackageDescription

/// Layers, bottom to top: C wrappers (`CLibPQ`, `CLibCrypto`, `CMicroHTTPD`) and shared
/// primitives (`Striping`, and `EventLoop`, the epoll reactor both adapters run on) → pure domain (`Registry`) → adapters (`RegistryPostgres`,
/// `HTTPServer`) → handlers (`RegistryAPI`) → the executable. `SwiftReader` (Swift source → JSON
/// Schema) sits beside the adapters and only the executable's CLI uses it, so the server's
/// modules never carry it.
/// A request's task starts inside libmicrohttpd's callback and must finish there when nothing
/// waits: async functions run on their caller's executor (no hop at each call), so only a real
/// wait suspends, and the task resumes on the loop it prefers.
let requestTasks: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "schema-registry",
    products: [
        .executable(name: "schema-registry", targets: ["schema-registry"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "CMicroHTTPD",
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "Striping"),
        .systemLibrary(name: "CEpoll"),
        .target(name: "EventLoop", dependencies: ["CEpoll"]),
        .target(name: "Registry", dependencies: ["CLibCrypto"], swiftSettings: requestTasks, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "SwiftReader", dependencies: ["Registry"]),
        .target(
            name: "RegistryPostgres",
            dependencies: ["Registry", "CLibPQ", "EventLoop"],
            exclude: ["SQL"],
            swiftSettings: requestTasks,
            plugins: ["EmbeddedFilesPlugin"]
        ),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "Striping", "EventLoop"], swiftSettings: requestTasks),
        .target(
            name: "RegistryAPI",
            dependencies: ["Registry", "HTTPServer", "Striping"],
            exclude: ["Panel/assets"],
            swiftSettings: requestTasks,
            plugins: ["EmbeddedFilesPlugin"]
        ),
        .executableTarget(
            name: "schema-registry",
            dependencies: ["Registry", "SwiftReader", "RegistryPostgres", "HTTPServer", "RegistryAPI", "CCurl"],
            plugins: ["BuildInfoPlugin"]
        ),
        .executableTarget(name: "build-info-tool", path: "Sources/BuildInfoTool"),
        .plugin(
            name: "BuildInfoPlugin",
            capability: .buildTool(),
            dependencies: ["build-info-tool"],
            path: "Sources/BuildInfoPlugin"
        ),
        .executableTarget(name: "embedded-files-tool", path: "Sources/EmbeddedFilesTool"),
        .plugin(
            name: "EmbeddedFilesPlugin",
            capability: .buildTool(),
            dependencies: ["embedded-files-tool"],
            path: "Sources/EmbeddedFilesPlugin"
        ),
        .target(
            name: "TestSupport",
            dependencies: ["Registry", "RegistryPostgres", "HTTPServer", "RegistryAPI", "EventLoop"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "RegistryTests", dependencies: ["Registry", "TestSupport"], swiftSettings: requestTasks),
        .testTarget(name: "SwiftReaderTests", dependencies: ["SwiftReader", "Registry", "TestSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "EventLoop", "TestSupport"], swiftSettings: requestTasks),
        .testTarget(name: "RegistryPostgresTests", dependencies: ["RegistryPostgres", "EventLoop", "TestSupport"], swiftSettings: requestTasks),
        .testTarget(name: "RegistryAPITests", dependencies: ["RegistryAPI", "RegistryPostgres", "TestSupport"], swiftSettings: requestTasks),
        .testTarget(name: "ServiceTests", dependencies: ["TestSupport"]),
        .testTarget(name: "ConfigurationTests", dependencies: ["schema-registry", "Registry"]),
    ]
)
