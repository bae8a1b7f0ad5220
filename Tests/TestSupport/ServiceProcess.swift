import Foundation
import Registry
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The built `schema-registry` binary run as a child process, for tests of what only a real
/// process shows: exit codes, stdout/stderr, signals, several replicas on one database.
///
/// Spawned with `posix_spawn` (as `TestPostgres` runs its tools): stdout and stderr go to files
/// in a private temporary directory, never pipes, so a chatty child can never block on a full
/// pipe, and every other descriptor is closed in the child. A process still running when its
/// object goes away, or when the test process exits, is killed.
public final class ServiceProcess: Sendable {
    public let pid: pid_t
    public let arguments: [String]
    /// Holds `stdout.log` and `stderr.log`; removed with the object.
    public let directory: String
    public var stdoutPath: String { directory + "/stdout.log" }
    public var stderrPath: String { directory + "/stderr.log" }
    private let state = Mutex(State())

    private struct State {
        var exitStatus: Int32?
        var port = 0
    }

    // MARK: - Binary and environment

    /// `$REGISTRY_BINARY`, else the `schema-registry` built beside the running test bundle
    /// (same configuration), else `.build/debug/schema-registry` in the package.
    public static var binaryPath: String {
        if let path = ProcessInfo.processInfo.environment["REGISTRY_BINARY"], !path.isEmpty { return path }
        if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("schema-registry").path
            if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        }
        return TestPaths.packageRoot.appendingPathComponent(".build/debug/schema-registry").path
    }

    /// The test process's environment without anything the registry reads (so a developer's
    /// `DATABASE_URL` never leaks into a test), then `overrides`. The migrations folder is the
    /// repository's unless `overrides` names one. A value of "" is passed as empty, which the
    /// binary treats as unset.
    public static func environment(_ overrides: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            key != "DATABASE_URL" && !key.hasPrefix("REGISTRY_")
        }
        environment["REGISTRY_MIGRATIONS_DIR"] = TestPostgres.migrationsDirectory
        for (key, value) in overrides { environment[key] = value }
        return environment
    }

    // MARK: - Starting

    /// Starts `schema-registry ARGUMENTS` with exactly `environment` (see `environment(_:)`).
    public static func spawn(_ arguments: [String], environment: [String: String]) throws -> ServiceProcess {
        Reaper.prepare()
        var template = Array("/tmp/service-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ServiceProcessError("mkdtemp failed: errno \(errno)") }
        let directory = String(cString: made)
        let binary = binaryPath
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw ServiceProcessError("no binary at \(binary): run `swift build` first or set REGISTRY_BINARY")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/stdout.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/stderr.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = CloseFrom.add?(&actions, 3)
        // Signals ignored or blocked in the test runner must not be inherited: the registry's
        // own SIGTERM handling is what is under test.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, number) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in envp { free(entry) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, binary, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw ServiceProcessError("cannot run \(binary): errno \(spawned)")
        }
        Reaper.register(pid)
        return ServiceProcess(pid: pid, arguments: arguments, directory: directory)
    }

    private init(pid: pid_t, arguments: [String], directory: String) {
        self.pid = pid
        self.arguments = arguments
        self.directory = directory
    }

    deinit {
        kill()
        if ProcessInfo.processInfo.environment["KEEP_SERVICE_LOGS"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Runs a command to completion (killed after `timeoutSeconds`) and returns what it printed.
    public static func run(
        _ arguments: [String], environment: [String: String], timeoutSeconds: Double = 30
    ) throws -> CommandResult {
        let process = try spawn(arguments, environment: environment)
        guard let status = process.waitForExit(timeoutSeconds: timeoutSeconds) else {
            process.kill()
            throw ServiceProcessError(
                "schema-registry \(arguments.joined(separator: " ")) still running after \(timeoutSeconds) s\n"
                    + process.diagnostics)
        }
        return CommandResult(status: status, stdout: process.stdout, stderr: process.stderr)
    }

    /// Starts `schema-registry serve` and waits until it answers `/healthz` (on `healthPort`
    /// when probes live on an admin port, else on the port it reports in its start-up line).
    public static func serve(
        environment: [String: String], healthPort: Int? = nil, timeoutSeconds: Double = 20
    ) throws -> ServiceProcess {
        let process = try spawn(["serve"], environment: environment)
        do {
            try process.waitUntilServing(healthPort: healthPort, timeoutSeconds: timeoutSeconds)
        } catch {
            process.kill()
            throw error
        }
        return process
    }

    // MARK: - Serving

    /// The port from the start-up log line (0 until `waitUntilServing` has seen it).
    public var port: Int { state.withLock { $0.port } }

    /// Waits for the start-up line `{"msg":"serving","port":N,…}` on stdout, then for `/healthz`
    /// to answer 200. Throws, with the process's output, if it exits or the time runs out.
    public func waitUntilServing(healthPort: Int? = nil, timeoutSeconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var servingPort: Int?
        while Date() < deadline {
            if let status = exitStatusIfExited() {
                throw ServiceProcessError("schema-registry serve exited with \(status) before serving\n" + diagnostics)
            }
            if servingPort == nil, let port = startupPort() {
                servingPort = port
                state.withLock { $0.port = port }
            }
            if let port = healthPort ?? servingPort,
                let response = try? RawHTTPClient.send(port: port, target: "/healthz", timeoutSeconds: 2),
                response.status == 200
            {
                if servingPort != nil { return }
            }
            usleep(10_000)
        }
        throw ServiceProcessError("schema-registry serve did not answer /healthz within \(timeoutSeconds) s\n" + diagnostics)
    }

    private func startupPort() -> Int? {
        for line in stdoutLines {
            guard let object = try? JSONParser.parse(Array(line.utf8)), object["msg"]?.stringValue == "serving" else {
                continue
            }
            return object["port"]?.integerLexemeValue
        }
        return nil
    }

    // MARK: - Signals and exit

    /// Sends `signal` to the process (ignored once it has exited and been reaped).
    public func send(_ signal: Int32) {
        guard exitStatusIfExited() == nil else { return }
        _ = Glibc.kill(pid, signal)
    }

    /// The exit status (a signal N reads as 128 + N) if the process has ended, reaping it.
    public func exitStatusIfExited() -> Int32? {
        state.withLock { state in
            if let status = state.exitStatus { return status }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            guard reaped == pid else { return nil }
            let status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            state.exitStatus = status
            Reaper.unregister(pid)
            return status
        }
    }

    public var hasExited: Bool { exitStatusIfExited() != nil }

    /// Waits up to `timeoutSeconds` for the process to end: its exit status, or nil if it is
    /// still running.
    public func waitForExit(timeoutSeconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if let status = exitStatusIfExited() { return status }
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Kills the process (SIGKILL) if it is still running and reaps it.
    public func kill() {
        guard exitStatusIfExited() == nil else { return }
        _ = Glibc.kill(pid, SIGKILL)
        _ = waitForExit(timeoutSeconds: 10)
    }

    // MARK: - Output

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Complete lines of stdout (a line still being written is left out).
    public var stdoutLines: [String] { Self.completeLines(stdout) }
    public var stderrLines: [String] { Self.completeLines(stderr) }

    /// stdout lines that parse as JSON objects (all of them, for a well-behaved server).
    public var logObjects: [JSONValue] {
        stdoutLines.compactMap { line in
            guard let value = try? JSONParser.parse(Array(line.utf8)), value.objectValue != nil else { return nil }
            return value
        }
    }

    /// Waits until a stdout log line satisfies `predicate`; returns it, or nil on timeout.
    public func waitForLog(timeoutSeconds: Double = 5, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if let found = logObjects.first(where: predicate) { return found }
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// What to show when an expectation about this process fails.
    public var diagnostics: String {
        let status = exitStatusIfExited().map { "exited with \($0)" } ?? "running"
        return "[schema-registry \(arguments.joined(separator: " ")) pid \(pid), \(status)]\n--- stderr ---\n"
            + String(stderr.suffix(3000)) + "\n--- stdout (tail) ---\n" + String(stdout.suffix(3000))
    }

    static func completeLines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // after the last newline: empty, or a line not finished yet
        return lines
    }
}

/// What a finished command printed.
public struct CommandResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var stdoutLines: [String] { ServiceProcess.completeLines(stdout) }
    public var stderrLines: [String] { ServiceProcess.completeLines(stderr) }

    public var description: String { "exit \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)" }
}

public struct ServiceProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Children still running when the test process exits are killed, so no server outlives a run.
private enum Reaper {
    private static let live = Mutex<Set<pid_t>>([])
    private static let prepared = Mutex(false)

    static func prepare() {
        let first = prepared.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { atexit { Reaper.killAll() } }
    }

    static func register(_ pid: pid_t) { _ = live.withLock { $0.insert(pid) } }
    static func unregister(_ pid: pid_t) { _ = live.withLock { $0.remove(pid) } }

    static func killAll() {
        let pids = live.withLock { set -> Set<pid_t> in
            defer { set = [] }
            return set
        }
        for pid in pids {
            _ = kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which the Glibc module does not
/// import, looked up at run time.
private enum CloseFrom {
    typealias Add = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    static let add: Add? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: Add.self) }
}
