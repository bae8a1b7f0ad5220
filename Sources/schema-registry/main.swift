import Foundation

/// `schema-registry COMMAND …`: every command prints only its result on stdout, messages go
/// to stderr, configuration and usage mistakes exit 2 with one line. Each command checks its
/// words against its `CommandSyntax` before it reads the configuration or the database.
let words = Array(CommandLine.arguments.dropFirst())
let rest = words.dropFirst()
let environment = ProcessInfo.processInfo.environment
do {
    switch words.first {
    case "serve":
        _ = try CommandSyntax(command: "serve").parse(rest)
        try ServeCommand.run(environment: environment)
    case "migrate":
        _ = try CommandSyntax(command: "migrate").parse(rest)
        try MigrateCommand.run(environment: environment)
    case "admin": try await AdminCommand.run(Array(rest), environment: environment)
    case "schema-from-swift": try SchemaFromSwiftCommand.run(try SchemaFromSwiftCommand.syntax.parse(rest))
    case "publish": try PublishCommand.run(try PublishCommand.syntax.parse(rest), environment: environment)
    case "check-values": try CheckValuesCommand.run(try CheckValuesCommand.syntax.parse(rest), environment: environment)
    case "version":
        _ = try CommandSyntax(command: "version").parse(rest)
        print(BuildInfo.versionLine)
    case let word? where ["help", "--help", "-h"].contains(word):
        _ = try CommandSyntax(command: word).parse(rest)
        print(Help.text, terminator: "")
    case let other?: throw UsageError("unknown command '\(other)'")
    case nil: throw UsageError("a command is required")
    }
} catch let error as ConfigurationError {
    Console.fail("configuration: \(error.description)", status: 2)
} catch let error as UsageError {
    Console.fail("\(error.description) (see 'schema-registry help')", status: 2)
} catch {
    Console.fail("\(error)", status: 1)
}
