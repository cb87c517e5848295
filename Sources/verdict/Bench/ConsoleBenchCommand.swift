import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import RuleEngine
import VerdictService
import VerdictStorage

/// `verdict bench console`: seeds a database with a generated history (decisions as for `verdict
/// bench replay`, plus the notification each was decided on, its customer and a transaction),
/// then serves it in-process and times every console page as a signed-in viewer: p50 and p99.
struct ConsoleBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Seed a history of decisions and customers, then time every console page (p50, p99).",
        discussion: """
            The history spans \(ReplayBenchCommand.period.days) days from \
            \(RuleTime.renderTimestamp(ReplayBenchCommand.period.since)); each decision comes with its notification \
            and a transaction. Pages are requested one at a time over loopback from a service started in this \
            process on the seeded database; the time is from request to the page's last byte.
            """
    )

    @Option(help: "sqlite:PATH or postgres://… (default sqlite:.verdict-bench/console.sqlite).")
    var databaseUrl = "sqlite:.verdict-bench/console.sqlite"

    @Option(help: "Decisions to seed.")
    var count = 1_000_000

    @Option(help: "Distinct customers of the seeded history.")
    var customers = 100_000

    @Option(help: "The bundle that decides the seeded history and the service serves.")
    var rulesDir = RulesCommandSupport.defaultDirectory

    @Option(help: "Requests per page.")
    var requests = 50

    @Flag(help: "Seed, do not time the pages.")
    var seedOnly = false

    @Flag(help: "Time the pages of what the database holds, do not seed.")
    var skipSeed = false

    func validate() throws {
        if count < 1 || customers < 1 || requests < 1 { throw ValidationError("--count, --customers and --requests must be at least 1") }
        if seedOnly && skipSeed { throw ValidationError("--seed-only and --skip-seed exclude each other") }
    }

    func run() async throws {
        let url = try DatabaseURL(parsing: databaseUrl)
        if !skipSeed { try ReplayBenchSeeding.createFolder(of: url) }
        var logger = Logger(label: "verdict.bench.console")
        logger.logLevel = .warning
        guard let bundle = RulesCommandSupport.load(rulesDir) else { throw ExitCode.failure }
        if !skipSeed {
            let seeded = try await ReplayBenchSeeding.seed(
                url, bundle: bundle, count: count, customers: customers, surroundings: true, skipSeed: "time its pages",
                logger: logger)
            print(String(format: "seeded %d decisions (%d offer decisions, %d consumption requests), their notifications, "
                            + "customers and transactions in %.1f s", seeded.offers + seeded.refunds, seeded.offers,
                         seeded.refunds, seeded.seconds))
        }
        if !seedOnly { try await timePages(logger: logger) }
    }

    private func timePages(logger: Logger) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("verdict-bench-console-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("root.der")
        try SimulatorPKI().rootCertificateDER.write(to: root)
        let token = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max)) }.joined()
        let environment = [
            "VERDICT_DATABASE_URL": databaseUrl, "VERDICT_RULES_DIR": rulesDir, "VERDICT_BUNDLE_ID": "com.example.lumen",
            "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_ROOT_CERTIFICATES": root.path, "VERDICT_API_TOKENS": "viewer:" + token,
            "VERDICT_RECONCILE_INTERVAL": "0", "VERDICT_LOG_LEVEL": "warning",
        ]
        let running = try await InProcessService.start(environment: environment, logger: logger)
        // Redirects are answers to check (the sign-in's), not to follow.
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        do {
            var timer = ConsolePageTimer(baseURL: running.baseURL, client: client)
            try await timer.signIn(token: token)
            let pages = try await Self.pages(in: running.service.apps.first.repository)
            print("\(pages.count) pages, \(requests) requests each (after 3 unmeasured), one at a time:")
            for (name, path) in pages {
                _ = try await timer.time(path, times: 3)
                let latency = LatencyDistribution(seconds: try await timer.time(path, times: requests))
                print("  " + name.padding(toLength: 28, withPad: " ", startingAt: 0) + String(
                    format: " p50 %6.1f ms   p99 %6.1f ms", latency.percentile(0.5) * 1_000, latency.percentile(0.99) * 1_000))
            }
        } catch {
            try? await client.shutdown()
            await running.stop()
            throw error
        }
        try await client.shutdown()
        await running.stop()
    }

    /// Every console page, with a rule, a decision and a customer of the stored history.
    static func pages(in repository: any VerdictRepository) async throws -> [(String, String)] {
        let rule = try await repository.offerRuleStatistics().max { $0.decisions < $1.decisions }?.ruleId ?? "none"
        let decision = try await repository.offerDecisions(matching: DecisionFilter(), limit: 1).first
        let request = try await repository.consumptionRequests(matching: DecisionFilter(), limit: 1).first
        let customer = decision?.originalTransactionId ?? "none"
        return [
            ("overview (last 30 days)", "/console/overview"),
            ("overview (last 365 days)", "/console/overview?days=365"),
            ("rules", "/console/rules"),
            ("decisions (newest)", "/console/decisions"),
            ("decisions of one rule", "/console/decisions?rule=\(rule)"),
            ("decisions redeemed", "/console/decisions?outcome=redeemed"),
            ("refund decisions", "/console/decisions?section=refunds"),
            ("one offer decision", "/console/decisions/offers/\(decision?.id ?? "none")"),
            ("one refund request", "/console/decisions/refunds/\(request?.id ?? "none")"),
            ("customer", "/console/customer?q=\(customer)"),
            ("refund requests", "/console/refunds"),
            ("replay", "/console/replay"),
        ]
    }
}
