import Foundation

/// `schema-registry COMMAND …`: every command prints only its result on stdout, messages go
/// to stderr, configuration and usage mistakes exit 2 with one line.
let arguments = CommandLine.arguments.dropFirst()
do {
    switch arguments.first {
    case "serve": try ServeCommand.run(environment: ProcessInfo.processInfo.environment)
    case "migrate": try MigrateCommand.run(environment: ProcessInfo.processInfo.environment)
    case "admin": try AdminCommand.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    case "schema-from-swift": try SchemaFromSwiftCommand.run(Array(arguments.dropFirst()))
    case "publish": try PublishCommand.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    case "check-values": try CheckValuesCommand.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    case "version": print(BuildInfo.versionLine)
    case "help", "--help", "-h": print(Help.text, terminator: "")
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
