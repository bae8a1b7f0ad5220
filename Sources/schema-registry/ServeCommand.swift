import Dispatch
import Foundation
import HTTPServer
import RegistryAPI
import RegistryPostgres

/// `schema-registry serve`. Start-up order: configuration → database pool → migrations check
/// → HTTP; shutdown runs in reverse on SIGTERM or SIGINT.
enum ServeCommand {
    static func run(environment: [String: String]) throws {
        let configuration = try Configuration.fromEnvironment(environment)
        let pool = Database.pool(configuration)
        let status = try Database.migrator(configuration, pool: pool).status()
        if let problem = status.problem {
            Console.fail(problem, status: 1)
        }
        let api = RegistryAPI(store: PostgresSchemaStore(pool: pool))
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: configuration.listenHost,
                port: configuration.listenPort,
                workers: configuration.httpWorkers,
                maxBodyBytes: configuration.maxBodyBytes,
                connectionMemoryLimitBytes: configuration.maxHeaderBytes,
                connectionTimeoutSeconds: configuration.connectionTimeoutSeconds,
                connectionLimit: configuration.maxConnections
            ),
            handler: api.handle,
            rejection: api.reject
        )
        try server.start()
        Console.message("schema-registry: serving on \(configuration.listenHost):\(server.port) "
            + configuration.redacted.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
        waitForTerminationSignal()
        Console.message("schema-registry: shutting down")
        server.quiesce()
        server.stop(graceSeconds: 10)
        pool.close()
        exit(0)
    }

    /// Blocks until SIGTERM or SIGINT arrives.
    private static func waitForTerminationSignal() {
        let received = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { received.signal() }
            source.resume()
            sources.append(source)
        }
        received.wait()
        sources.forEach { $0.cancel() }
    }
}
