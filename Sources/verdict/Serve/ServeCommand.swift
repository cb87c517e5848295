import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import VerdictService
import VerdictStorage

/// `verdict serve`: the Verdict service (notification intake, job worker, HTTP API) until SIGINT or
/// SIGTERM, which stop it gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Verdict service.",
        discussion: """
            Every setting is a flag, a VERDICT_* environment variable of the same name \
            (--database-url ↔ VERDICT_DATABASE_URL) or a key of the --config JSON file; see docs/configuration.md. \
            Logs are JSON lines on standard error.
            """
    )

    @OptionGroup var options: ServiceOptions

    func run() async throws {
        let configuration = try await options.configuration()
        let (logger, telemetry) = try Telemetry.start(command: "verdict", logLevel: configuration.logLevel)
        let server: VerdictServer
        do {
            server = try await VerdictServer.open(
                configuration: configuration, logger: logger, metricsBackend: .bootstrapProcessWide(exportingTo: telemetry.metrics))
        } catch {
            FileHandle.standardError.write(Data("verdict: cannot start: \(error)\n".utf8))
            throw ExitCode.failure
        }
        // The SQLite file is named; a PostgreSQL URL is not (it may hold a password).
        let database = switch configuration.databaseURL {
        case .sqliteFile(let path): "sqlite:" + path
        case .sqliteMemory: "sqlite::memory:"
        case .postgres: "postgres"
        }
        let application = try server.makeApplication(reloadOnHangup: true, services: telemetry.services) { port in
            logger.info("verdict listening", metadata: [
                "address": .string("http://\(configuration.host):\(port)"),
                "database": .string(database),
            ])
        }
        try await application.runService()
    }
}
