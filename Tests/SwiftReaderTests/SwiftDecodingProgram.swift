import Foundation

/// A program built with the machine's Swift compiler from fixture sources and a generated
/// `main.swift`, that tells for each JSON value whether `JSONDecoder` decodes it into a type:
/// the device's own answer, for the differential test of the registry's checker.
///
/// On Linux there is no ActivityKit, so `main.swift` declares the one protocol the fixtures
/// need; swift-foundation's `JSONDecoder` decodes as iOS 17 and later do.
struct SwiftDecodingProgram {
    /// One input: `decoder` names a `decoders` entry, `json` is the value's text on one line.
    struct Input {
        var decoder: String
        var json: String
    }

    let executable: URL
    let directory: URL

    static let activityKitShim = """
        protocol ActivityAttributes: Codable {
            associatedtype ContentState: Codable & Hashable
        }
        """

    /// Compiles `sources` with a `main.swift` whose decoders are `decoders`: decoder name →
    /// Swift type expression, such as `"Order content-state": "Order.ContentState"`.
    static func build(sources: [URL], decoders: [(name: String, type: String)]) throws -> SwiftDecodingProgram {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-decoding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let main = directory.appendingPathComponent("main.swift")
        try mainSource(decoders: decoders).write(to: main, atomically: true, encoding: .utf8)
        let executable = directory.appendingPathComponent("decode")
        let compiler = try swiftc()
        let arguments = ["-Onone", "-module-name", "DecodingShapes", "-module-cache-path", directory.appendingPathComponent("cache").path]
            + [main.path] + sources.map(\.path) + ["-o", executable.path]
        let result = try run(compiler, arguments, in: directory, name: "swiftc")
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw ProgramError("\(compiler.path) failed (\(result.status)):\n\(result.output)")
        }
        return SwiftDecodingProgram(executable: executable, directory: directory)
    }

    /// For each input, whether it decoded, with the decoder's error otherwise.
    func decode(_ inputs: [Input]) throws -> [(decoded: Bool, error: String)] {
        let input = directory.appendingPathComponent("values.txt")
        try inputs.map { "\($0.decoder)\t\($0.json)\n" }.joined().write(to: input, atomically: true, encoding: .utf8)
        let result = try Self.run(executable, [input.path], in: directory, name: "decode")
        guard result.status == 0 else { throw ProgramError("the decoding program failed (\(result.status)):\n\(result.output)") }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.count == inputs.count else {
            throw ProgramError("the decoding program answered \(lines.count) lines for \(inputs.count) values")
        }
        return lines.map { line in line.hasPrefix("ok") ? (true, "") : (false, String(line.dropFirst("fail ".count))) }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func mainSource(decoders: [(name: String, type: String)]) -> String {
        let table = decoders.map { "    \"\($0.name)\": { try JSONDecoder().decode(\($0.type).self, from: $0) },\n" }.joined()
        return """
            import Foundation

            \(activityKitShim)

            let decoders: [String: (Data) throws -> Any] = [
            \(table)]

            let lines = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).split(separator: "\\n")
            for line in lines {
                let parts = line.split(separator: "\\t", maxSplits: 1)
                guard let decode = decoders[String(parts[0])] else { fatalError("no decoder \\(parts[0])") }
                do {
                    _ = try decode(Data(parts[1].utf8))
                    print("ok")
                } catch {
                    print("fail " + String(describing: error).split(whereSeparator: \\.isNewline).joined(separator: " "))
                }
            }

            """
    }

    /// `swiftc` beside the `swift` on PATH (the toolchain running the tests), or alone on PATH.
    static func swiftc() throws -> URL {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let executable = { (path: String) in FileManager.default.isExecutableFile(atPath: path) }
        for directory in directories where executable(directory + "/swift") && executable(directory + "/swiftc") {
            return URL(fileURLWithPath: directory + "/swiftc")
        }
        for directory in directories where executable(directory + "/swiftc") {
            return URL(fileURLWithPath: directory + "/swiftc")
        }
        throw ProgramError("no swiftc on PATH (\(directories.joined(separator: ":")))")
    }

    /// Runs to the end, stdout and stderr into one file (a pipe could fill and stall the child).
    private static func run(_ executable: URL, _ arguments: [String], in directory: URL, name: String) throws
        -> (status: Int32, output: String)
    {
        let outputFile = directory.appendingPathComponent("\(name).out")
        FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = output
        process.standardError = name == "decode" ? FileHandle.standardError : output
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: outputFile, encoding: .utf8))
    }
}

struct ProgramError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
