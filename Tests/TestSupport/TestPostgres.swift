import Foundation
import RegistryPostgres
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests against the real database rather than mocks: the
/// behaviours that matter (unique violations, row locks, restarts) only exist there.
///
/// Each cluster lives in a fresh temporary directory, listens on a unix socket in it and on
/// 127.0.0.1 at a free port, runs with fsync off for speed, and is stopped and deleted when the
/// test process exits. PostgreSQL refuses to run as root, so when tests run as root the server
/// binaries run as `postgres` through `runuser`.
public final class TestPostgres: Sendable {
    /// The temporary directory: holds `data/`, the socket and the logs.
    public let directory: String
    public let dataDirectory: String
    public let port: Int
    public let binDirectory: String
    private let state = Mutex(State())

    private struct State {
        var running = false
        var databases = 0
    }

    /// libpq URI of the `postgres` database over the unix socket.
    public var url: String { url(database: "postgres") }

    /// libpq URI of `database` over the unix socket.
    public func url(database: String) -> String {
        "postgresql:///\(database)?host=\(directory)&port=\(port)&user=postgres"
    }

    /// libpq URI of `database` over TCP on 127.0.0.1.
    public func tcpURL(database: String = "postgres") -> String {
        "postgresql://postgres@127.0.0.1:\(port)/\(database)"
    }

    public var isRunning: Bool { state.withLock { $0.running } }

    // MARK: - Shared and private clusters

    private static let sharedCluster = Mutex<Result<TestPostgres, any Error>?>(nil)

    /// One cluster per test process, started on first use. Suites share it but not data: each
    /// takes its own database from `makeDatabase()`.
    public static var shared: TestPostgres {
        get throws {
            try sharedCluster.withLock { cached in
                if let cached { return try cached.get() }
                let result = Result { try TestPostgres.start() }
                cached = result
                return try result.get()
            }
        }
    }

    /// A private cluster, for tests that stop or restart the server.
    public static func start() throws -> TestPostgres {
        Cleanup.prepare()
        let binDirectory = locateBinDirectory()
        var template = Array("/tmp/testpg.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestPostgresError("mkdtemp failed: errno \(errno)") }
        let directory = String(cString: made)
        try? "\(getpid())\n".write(toFile: directory + "/owner.pid", atomically: false, encoding: .utf8)
        if geteuid() == 0 {
            guard let account = getpwnam("postgres") else {
                throw TestPostgresError("running as root but there is no postgres user to run PostgreSQL as")
            }
            chown(directory, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        Cleanup.register(directory)

        let dataDirectory = directory + "/data"
        try runTool(
            binDirectory + "/initdb",
            ["-D", dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
            in: directory, log: directory + "/initdb.log")
        let settings = """

            # TestPostgres: fast and private
            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(directory)'
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            max_connections = 200
            shared_buffers = 32MB
            """
        let conf = try FileHandle(forWritingTo: URL(fileURLWithPath: dataDirectory + "/postgresql.conf"))
        conf.seekToEndOfFile()
        conf.write(Data(settings.utf8))
        try conf.close()

        // A free port can be taken between probing and binding: probe again a few times.
        var lastError: (any Error)?
        for _ in 0..<5 {
            let cluster = TestPostgres(
                directory: directory, dataDirectory: dataDirectory, port: try TestPorts.free(), binDirectory: binDirectory)
            do {
                try cluster.start()
                return cluster
            } catch {
                lastError = error
            }
        }
        throw lastError ?? TestPostgresError("could not start PostgreSQL")
    }

    private init(directory: String, dataDirectory: String, port: Int, binDirectory: String) {
        self.directory = directory
        self.dataDirectory = dataDirectory
        self.port = port
        self.binDirectory = binDirectory
    }

    // MARK: - Lifecycle

    /// Starts the server and waits until it accepts connections.
    public func start() throws {
        try pgCtl(["start", "-w", "-t", "60", "-l", directory + "/server.log", "-o", "-p \(port)"])
        state.withLock { $0.running = true }
    }

    /// Stops the server (fast mode: sessions are terminated, as in a real deploy or failover).
    public func stop() throws {
        try pgCtl(["stop", "-w", "-t", "60", "-m", "fast"])
        state.withLock { $0.running = false }
    }

    /// Restarts the server; clients' sessions are terminated and must reconnect.
    public func restart() throws {
        try pgCtl(["restart", "-w", "-t", "60", "-m", "fast", "-l", directory + "/server.log", "-o", "-p \(port)"])
        state.withLock { $0.running = true }
    }

    /// A new, empty database (unique name) with the migrations applied unless `migrated` is
    /// false. Returns its URL. Parallel suites each take their own, so they share no rows.
    public func makeDatabase(migrated: Bool = true) throws -> String {
        let number = state.withLock { state -> Int in
            state.databases += 1
            return state.databases
        }
        let name = "test_\(number)_\(UInt32.random(in: 0...UInt32.max))"
        let admin = try PGConnection.connect(PostgresConfig(databaseURL: url))
        try admin.simpleQuery("CREATE DATABASE \(name)")
        let databaseURL = url(database: name)
        if migrated {
            let pool = ConnectionPool(config: PostgresConfig(databaseURL: databaseURL, poolSize: 1))
            defer { pool.close() }
            try Migrator(pool: pool, directory: Self.migrationsDirectory).migrate()
        }
        return databaseURL
    }

    /// The repository's `migrations` folder (or `$REGISTRY_MIGRATIONS_DIR`).
    public static var migrationsDirectory: String {
        let sourceRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return Migrator.locateDirectory(executableDirectory: sourceRoot.path)
    }

    // MARK: - Tools

    private func pgCtl(_ arguments: [String]) throws {
        try Self.runTool(
            binDirectory + "/pg_ctl", ["-D", dataDirectory] + arguments, in: directory,
            log: directory + "/pg_ctl.log", serverLog: directory + "/server.log")
    }

    /// `TEST_PG_BINDIR`, else `pg_config --bindir`, else the Debian location of PostgreSQL 15.
    static func locateBinDirectory() -> String {
        if let override = ProcessInfo.processInfo.environment["TEST_PG_BINDIR"], !override.isEmpty {
            return override
        }
        if let pipe = popen("pg_config --bindir 2>/dev/null", "r") {
            var buffer = [CChar](repeating: 0, count: 4096)
            let line = fgets(&buffer, Int32(buffer.count), pipe).map { _ in
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            let status = pclose(pipe)
            let path = line?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if status == 0, FileManager.default.isExecutableFile(atPath: path + "/initdb") { return path }
        }
        return "/usr/lib/postgresql/15/bin"
    }

    /// Runs a PostgreSQL tool, as `postgres` when we are root, and waits for it.
    ///
    /// Spawned directly rather than with Foundation's `Process`: `pg_ctl start` leaves a server
    /// behind, and `Process` notices a child's exit through a descriptor that server would
    /// inherit, so it would wait for the server to stop. Output goes to a log file and every
    /// other descriptor is closed in the child for the same reason.
    private static func runTool(
        _ tool: String, _ arguments: [String], in directory: String, log: String, serverLog: String? = nil
    ) throws {
        let argv = geteuid() == 0 ? [runuserPath(), "-u", "postgres", "--", tool] + arguments : [tool] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        _ = SpawnExtensions.addChdir?(&actions, directory)
        _ = SpawnExtensions.addCloseFrom?(&actions, 3)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw TestPostgresError("cannot run \(argv[0]): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard exitCode == 0 else {
            var message = "\((tool as NSString).lastPathComponent) \(arguments.first ?? "") failed (exit \(exitCode))\n"
            message += tail(log)
            if let serverLog { message += "\n--- server log ---\n" + tail(serverLog) }
            throw TestPostgresError(message)
        }
    }

    private static func runuserPath() -> String {
        for candidate in ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "/usr/sbin/runuser"
    }

    private static func tail(_ path: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
    }

}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `..._addclosefrom_np` (2.34),
/// which the Glibc module does not import, looked up at run time.
private enum SpawnExtensions {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChdir.self)
    }
    static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
}

/// Why the test cluster could not be set up, with the tool's log tail.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Makes sure no cluster outlives its test process: each is stopped and deleted at exit, and
/// leftovers of a crashed run (their owner process is gone) are removed at the next start.
private enum Cleanup {
    private static let directories = Mutex<[String]>([])
    private static let prepared = Mutex(false)

    static func prepare() {
        let first = prepared.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        atexit { Cleanup.stopAll() }
        removeOrphans()
    }

    static func register(_ directory: String) {
        directories.withLock { $0.append(directory) }
    }

    static func stopAll() {
        let all = directories.withLock { list -> [String] in
            defer { list = [] }
            return list
        }
        for directory in all { shutDown(directory) }
    }

    /// Clusters under /tmp whose owning test process no longer exists.
    private static func removeOrphans() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/tmp") else { return }
        for name in names where name.hasPrefix("testpg.") {
            let directory = "/tmp/" + name
            guard let owner = readPid(directory + "/owner.pid"), owner != getpid(),
                kill(owner, 0) != 0, errno == ESRCH
            else { continue }
            shutDown(directory)
        }
    }

    /// Immediate shutdown by signal (no subprocess needed, so it works inside `atexit`), then
    /// removal of the directory once the postmaster is gone.
    private static func shutDown(_ directory: String) {
        if let postmaster = readPid(directory + "/data/postmaster.pid"), kill(postmaster, SIGQUIT) == 0 {
            var waited = 0
            while kill(postmaster, 0) == 0 && waited < 500 {
                usleep(10_000)
                waited += 1
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func readPid(_ path: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line.trimmingCharacters(in: .whitespaces)),
            pid > 0
        else { return nil }
        return pid
    }
}
