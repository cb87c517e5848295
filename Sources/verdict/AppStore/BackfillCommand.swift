import AppStoreServer
import ArgumentParser
import Foundation
import VerdictService

/// `verdict appstore backfill`: recovers notifications from Get Notification History after an
/// outage, through the same intake as delivered ones (verified, stored once, queued for processing
/// by the running service).
struct BackfillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill",
        abstract: "Recover notifications from the App Store's Notification History.",
        discussion: """
            Uses the service's configuration (flags, VERDICT_* variables, --config) for the database, \
            the verifier and the In-App Purchase key. Notifications already stored are skipped; new \
            ones are stored and queued, and a running `verdict serve` on the same database processes them.
            """
    )

    @OptionGroup var options: ServiceOptions
    @OptionGroup var app: AppOption
    @Option(help: "Start of the range: YYYY-MM-DD or an ISO 8601 date-time (UTC).")
    var since: String
    @Option(help: "End of the range (default: now).")
    var until: String?
    @Flag(help: "Only notifications Apple failed to deliver.")
    var onlyFailures = false
    @Option(help: "Production or Sandbox (default: every accepted environment with an API host).")
    var environment: String?

    func run() async throws {
        guard let start = DateArgument.parse(since) else { throw ValidationError("--since must be YYYY-MM-DD or ISO 8601.") }
        guard let end = until.map(DateArgument.parse) ?? Date() else {
            throw ValidationError("--until must be YYYY-MM-DD or ISO 8601.")
        }
        guard start < end else { throw ValidationError("--since must be before --until.") }
        let configuration = try await options.configuration()
        let logger = ServiceOptions.bootstrapLogging(level: .warning)
        let server = try await VerdictServer.open(configuration: configuration, logger: logger)
        defer { Task { try? await server.shutdown() } }
        let app = try self.app.select(in: server)
        let environments = environment.map { [AppStoreEnvironment(rawValue: $0)] }
            ?? app.configuration.environments.filter { $0 == .production || $0 == .sandbox }.sorted { $0.rawValue < $1.rawValue }
        for environment in environments {
            let client: AppStoreServerAPIClient
            do {
                client = try app.appStore.client(for: environment)
            } catch {
                throw ValidationError("backfill needs the In-App Purchase key: \(app.appStore.unavailableReason ?? "unavailable")")
            }
            print("backfill \(environment.rawValue) \(DateArgument.format(start)) … \(DateArgument.format(end))")
            let progress = try await NotificationHistoryReplay(intake: app.intake, client: client).replay(
                start: start, end: end, onlyFailures: onlyFailures, source: .backfill
            ) { progress in
                print("  \(progress)")
            }
            print("done \(environment.rawValue): \(progress)")
        }
        try await server.shutdown()
    }
}

/// Dates on the command line: `2026-11-01` (midnight UTC) or ISO 8601 with time.
enum DateArgument {
    static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let day = Date.ISO8601FormatStyle().year().month().day()
        return try? Date(text, strategy: day)
    }

    static func format(_ date: Date) -> String { date.formatted(.iso8601) }
}
