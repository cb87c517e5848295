import AppStoreServer
import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import RuleEngine
import VerdictService
import VerdictStorage

/// `verdict bench realtime`: Retention Messaging realtime requests at a fixed rate against a
/// service started in this process on a database of many subscribers — the App Store's cancel
/// page under load. Prints the answers by kind and the latency distribution.
struct RealtimeBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        abstract: "Answer signed realtime requests at a fixed rate over many stored subscribers; print latency (p50–p99).",
        discussion: """
            Seeds --customers subscribers (transactions and renewal info as the service stores them; then ANALYZE), \
            marks the bundle's messages and images approved, starts the service in this process with a generated In-App Purchase key \
            (offers are signed), mints one signed realtime request per send (a random subscriber each, a new \
            requestIdentifier), then sends them at --rate per second (open loop: a late request counts its wait) \
            after 2 unmeasured seconds. Latency is from when each request was due to its answer's last byte, over \
            loopback; the service's own histogram is printed beside it.
            """
    )

    @Option(help: "sqlite:PATH or postgres://… (default sqlite:.verdict-bench/realtime.sqlite; the goal is stated for PostgreSQL).")
    var databaseUrl = "sqlite:.verdict-bench/realtime.sqlite"

    @Option(help: "Subscribers to seed.")
    var customers = 100_000

    @Option(help: "Requests per second.")
    var rate = 200

    @Option(help: "Seconds measured.")
    var seconds = 30

    @Option(help: "Keep-alive connections (Apple's performance test uses a few; more keep late answers from queueing).")
    var connections = 32

    @Option(help: "VERDICT_RETENTION_DEADLINE in milliseconds.")
    var deadline = 400

    @Option(help: "The bundle the service decides with.")
    var rulesDir = RulesCommandSupport.defaultDirectory

    @Flag(help: "Use the subscribers the database holds, do not seed.")
    var skipSeed = false

    func validate() throws {
        if customers < 1 || rate < 1 || seconds < 1 || connections < 1 { throw ValidationError("counts must be at least 1") }
    }

    func run() async throws {
        let url = try DatabaseURL(parsing: databaseUrl)
        if !skipSeed { try ReplayBenchSeeding.createFolder(of: url) }
        var logger = Logger(label: "verdict.bench.realtime")
        logger.logLevel = .warning
        guard let bundle = RulesCommandSupport.load(rulesDir) else { throw ExitCode.failure }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("verdict-bench-realtime-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try SimulatorPKI()
        let token = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max)) }.joined()
        let environment = try Self.environment(
            databaseUrl: databaseUrl, rulesDir: rulesDir, deadline: deadline, token: token, pki: pki, directory: directory)
        let running = try await InProcessService.start(environment: environment, logger: logger)
        do {
            try await measure(running, bundle: bundle, signer: pki.signer(), token: token)
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }

    private func measure(_ running: InProcessService, bundle: RuleBundle, signer: AppStoreSigner, token: String) async throws {
        let repository = running.service.apps.first.repository
        let now = Date()
        if !skipSeed {
            guard try await repository.customer(originalTransactionId: RealtimeBenchSeeding.originalTransactionId(0)) == nil else {
                throw BenchFailure("\(databaseUrl) already holds the bench's subscribers: use --skip-seed, or a fresh database")
            }
            let seeded = try await RealtimeBenchSeeding.seed(customers, into: repository, now: now)
            try await repository.refreshStatistics()
            print(String(format: "seeded %d subscribers (%d transactions, renewal info) in %.1f s", customers, seeded.transactions,
                         seeded.seconds))
        }
        // Every text and image approved, as `verdict appstore messages sync` records Apple's review.
        let texts = bundle.messages.messages.flatMap { message in
            message.locales.map {
                RetentionMessageState(messageIdentifier: $0.identifier.uuidString.lowercased(), messageId: message.id,
                                      locale: $0.locale, state: ReviewState.approved.rawValue, checkedAt: now.appStoreMilliseconds)
            }
        }
        let images = bundle.messages.images.map {
            RetentionMessageState(messageIdentifier: $0.identifier.uuidString.lowercased(), messageId: $0.id, locale: $0.size,
                                  state: ReviewState.approved.rawValue, checkedAt: now.appStoreMilliseconds, kind: .image)
        }
        try await repository.recordRetentionMessageStates(texts + images)
        let warmUp = 2 * rate
        let measured = rate * seconds
        let minting = ContinuousClock.now
        let bodies = try Self.mint(warmUp + measured, customers: customers, signer: signer)
        print(String(format: "minted %d signed realtime requests in %.1f s", bodies.count,
                     (ContinuousClock.now - minting).seconds))
        guard var load = HTTPLoad(url: running.baseURL + "/v1/retention/realtime", concurrency: connections) else {
            throw BenchFailure("bad service URL \(running.baseURL)")
        }
        load.rate = Double(rate)
        _ = await load.run(bodies: Array(bodies[..<warmUp]))
        let before = try? await RealtimeMetrics.read(running.baseURL, token: token)
        let result = await load.run(bodies: Array(bodies[warmUp...]))
        print(report(result))
        // An overloaded service may not answer /metrics in time: the client's figures stand alone.
        if let before, let after = try? await RealtimeMetrics.read(running.baseURL, token: token) {
            let answers = after.answers.merging(before.answers.mapValues { -$0 }, uniquingKeysWith: +).filter { $0.value != 0 }
            print("answers: " + answers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            print("inside Verdict (verdict_retention_realtime_seconds): " + after.serverShare(since: before))
        } else {
            print("the service's /metrics did not answer within 10 s: no answer kinds or server times")
        }
        if result.succeeded != measured { throw ExitCode.failure }
    }

    /// What a run printed: the rate reached, the latency, the goal.
    private func report(_ result: HTTPLoad.Result) -> String {
        let latency = LatencyDistribution(seconds: result.latencies)
        var lines = [
            String(format: "%d requests at %d/s over %d connections in %.1f s (%.0f/s reached): %@", result.latencies.count, rate,
                   connections, result.seconds, Double(result.latencies.count) / result.seconds,
                   result.outcomes.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")),
            "latency (client, loopback, from when due): " + latency.summary,
            "goal p99 ≤ 50 ms: " + (latency.percentile(0.99) <= 0.050 ? "met" : "not met"),
        ]
        lines += result.failureSamples.map { "  failure: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// `count` signed requests for random seeded subscribers (their product, a locale of three).
    static func mint(_ count: Int, customers: Int, signer: AppStoreSigner) throws -> [ByteBuffer] {
        let locales = ["en-US", "de-DE", "fr-FR"]
        let now = Date()
        return try (0..<count).map { _ in
            let index = Int.random(in: 0..<customers)
            let request = DecodedRealtimeRequestBody(
                originalTransactionId: RealtimeBenchSeeding.originalTransactionId(index),
                appAppleId: RealtimeBenchSeeding.appAppleId,
                productId: index % 10 < 6 ? "com.lumen.pro.annual" : "com.lumen.pro.monthly",
                userLocale: locales[index % locales.count], requestIdentifier: UUID(), signedDate: now, environment: .sandbox)
            return ByteBuffer(bytes: try JSONEncoder().encode(RealtimeRequestBody(signedPayload: try signer.sign(request))))
        }
    }

    /// The service's settings: the bench's PKI trusted, a generated In-App Purchase key (offers are
    /// signed; the App Store Server API is never called on this path).
    static func environment(databaseUrl: String, rulesDir: String, deadline: Int, token: String, pki: SimulatorPKI,
                            directory: URL) throws -> [String: String] {
        let root = directory.appendingPathComponent("root.der")
        try pki.rootCertificateDER.write(to: root)
        let key = directory.appendingPathComponent("SubscriptionKey_BENCH000001.p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: key)
        return [
            "VERDICT_DATABASE_URL": databaseUrl, "VERDICT_RULES_DIR": rulesDir, "VERDICT_BUNDLE_ID": RealtimeBenchSeeding.bundleId,
            "VERDICT_APP_APPLE_ID": String(RealtimeBenchSeeding.appAppleId), "VERDICT_ENVIRONMENTS": "Sandbox",
            "VERDICT_ROOT_CERTIFICATES": root.path, "VERDICT_API_TOKENS": token, "VERDICT_RECONCILE_INTERVAL": "0",
            "VERDICT_LOG_LEVEL": "warning", "VERDICT_RETENTION_DEADLINE": String(deadline),
            "VERDICT_APPSTORE_KEY_ID": "BENCH000001", "VERDICT_APPSTORE_ISSUER_ID": UUID().uuidString.lowercased(),
            "VERDICT_APPSTORE_PRIVATE_KEY_FILE": key.path, "VERDICT_APPSTORE_API_URL": "http://127.0.0.1:9",
        ]
    }
}
