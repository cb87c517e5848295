import ArgumentParser
import Foundation
import Logging

extension Telemetry {
    /// What a command that runs the service (`verdict serve`, `verdict demo`) sets up first: the
    /// process's logging — JSON lines at `logLevel`, with the trace's ids when traces are on — and
    /// the exporters the `OTEL_*` variables ask for. A setting this build cannot honour is printed
    /// as `<command>: configuration error: OpenTelemetry: …` and exits 78.
    static func start(command: String, logLevel: Logger.Level) throws -> (logger: Logger, exporters: Exporters) {
        let logger = ServiceOptions.bootstrapLogging(
            level: logLevel, metadataProvider: tracesRequested(ProcessInfo.processInfo.environment) ? logMetadata : nil)
        do {
            return (logger, try bootstrap())
        } catch {
            FileHandle.standardError.write(Data("\(command): configuration error: OpenTelemetry: \(error)\n".utf8))
            throw ExitCode(78)
        }
    }
}
