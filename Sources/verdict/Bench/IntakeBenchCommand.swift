import AppStoreServer
import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import VerdictService

/// `verdict bench intake`: a load generator for a running `verdict serve`. It mints unique, validly
/// signed DID_RENEW notifications with a simulator PKI kept in a state directory, signs them all
/// before the clock starts, POSTs them to `/v1/notifications` over N connections and prints
/// throughput and latency percentiles.
struct IntakeBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intake",
        abstract: "POST signed notifications to a running `verdict serve` and print throughput and latency.",
        discussion: """
            The service must trust the bench's root certificate; the command prints the environment \
            `verdict serve` needs first (--print-setup prints only that). Exits non-zero if any request \
            was not answered with a 2xx status.
            """
    )

    @Option(help: "The service's notification endpoint.")
    var url = "http://127.0.0.1:8080/v1/notifications"

    @Option(help: "Concurrent connections.")
    var concurrency = 32

    @Option(help: "Notifications to send (each unique).")
    var count = 20_000

    @Option(help: "Directory keeping the bench's PKI (reused across runs, so the service keeps trusting it).")
    var stateDir = ".verdict-bench"

    @Option(help: "Bundle id written into the notifications (the service's VERDICT_BUNDLE_ID; with --apps, the first app's).")
    var bundleId = BenchNotifications.bundleId

    @Option(help: "Apps to spread the notifications over (the first is --bundle-id, then <bundle id>.2 …); the service serves them from the config file printed with the setup.")
    var apps = 1

    @Option(help: "Environment written into the notifications: Sandbox or Production.")
    var environment = AppStoreEnvironment.sandbox.rawValue

    @Option(help: ArgumentHelp(
        "A bearer token of the service (one of its VERDICT_API_TOKENS): after sending, wait until every notification is processed and print how long that took.",
        valueName: "token"))
    var token: String?

    @Flag(help: "Print the root certificate path and the `verdict serve` environment, then exit.")
    var printSetup = false

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        guard (1...100).contains(apps) else { throw ValidationError("--apps must be 1…100") }
        guard URL(string: url)?.host != nil else { throw ValidationError("--url must be an absolute http URL") }
        guard [AppStoreEnvironment.sandbox, .production].map(\.rawValue).contains(environment) else {
            throw ValidationError("--environment must be Sandbox or Production")
        }
    }

    func run() async throws {
        let state = SimulatorStateDirectory(url: URL(fileURLWithPath: stateDir).standardizedFileURL)
        let pki = try state.loadOrCreate().pki
        let template = BenchNotifications.Template(
            event: .renewal, bundleId: bundleId, environment: AppStoreEnvironment(rawValue: environment))
        let spread = IntakeBenchApps(count: apps, template: template)
        let configFile = apps > 1 ? try spread.writeConfigFile(in: URL(fileURLWithPath: stateDir).standardizedFileURL) : nil
        print(setup(rootCertificate: state.rootCertificateURL.path, template: template, configFile: configFile))
        if printSetup { return }

        guard let load = HTTPLoad(url: url, concurrency: concurrency) else {
            throw ValidationError("--url must be an absolute http:// URL")
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let result: HTTPLoad.Result
        do {
            try await checkReachable(client: client)
            let clock = ContinuousClock()
            let mintStart = clock.now
            let notifications = try await spread.mint(count: count, signer: pki.signer())
            let bodies = notifications.map { ByteBuffer(string: #"{"signedPayload":"\#($0)"}"#) }
            print(String(format: "signed %d DID_RENEW notifications (3 JWS each) for %d app(s) in %.1f s; sending over %d connections to %@",
                         count, apps, (clock.now - mintStart).seconds, concurrency, url))
            result = await load.run(bodies: bodies)
            report(result)
            if let token, result.failed == 0 {
                let drain = try await ProcessingDrain(metricsURL: sibling("/metrics"), token: token).wait(client: client)
                report(drain, sent: result)
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        if result.failed > 0 { throw ExitCode.failure }
    }

    /// The root certificate's path and a copy-pasteable `verdict serve` command line (several
    /// apps: with the config file naming them).
    private func setup(rootCertificate: String, template: BenchNotifications.Template, configFile: String?) -> String {
        var variables: [(ConfigurationKey, String)] = configFile.map { [(.configFile, $0)] } ?? [(.bundleId, template.bundleId)]
        variables += [
            (.environments, template.environment.rawValue),
            (.rootCertificates, rootCertificate),
            (.reconcileInterval, "0"),
            (.logLevel, "warning"),
        ]
        if template.environment == .production, configFile == nil {
            variables.insert((.appAppleId, String(template.appAppleId)), at: 1)
        }
        if let port = URL(string: url)?.port {
            variables.append((.port, String(port)))
        }
        let database = ConfigurationKey.databaseURL.environmentVariable
        var lines = ["root certificate: \(rootCertificate)", "start the service (release build) with:"]
        lines.append("  \(database)=\"${\(database):-sqlite:verdict-bench.sqlite}\" \\")
        for (key, value) in variables {
            lines.append("  \(key.environmentVariable)=\(Self.shellQuoted(value)) \\")
        }
        lines.append("  verdict serve")
        lines.append("(with VERDICT_API_TOKENS set too, --token waits for processing and reports it)")
        return lines.joined(separator: "\n")
    }

    /// `path` on the service that `url` belongs to.
    private func sibling(_ path: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = path
        components.query = nil
        return components.string ?? url
    }

    /// Fails early, with a hint, when nothing answers `/healthz` next to the notification URL.
    private func checkReachable(client: HTTPClient) async throws {
        let health = sibling("/healthz")
        let problem: String
        do {
            let response = try await client.execute(HTTPClientRequest(url: health), timeout: .seconds(5))
            _ = try await response.body.collect(upTo: 1 << 16)
            if response.status == .ok { return }
            problem = "\(health) answered \(response.status.code); is this a Verdict service?"
        } catch {
            problem = "no service answers \(health) (\(error)); start it as shown above"
        }
        FileHandle.standardError.write(Data("verdict: \(problem)\n".utf8))
        throw ExitCode.failure
    }

    private func report(_ result: HTTPLoad.Result) {
        let latency = LatencyDistribution(seconds: result.latencies)
        let throughput = Double(result.succeeded) / result.seconds
        let outcomes = result.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }
        print("requests: \(result.latencies.count), succeeded (2xx): \(result.succeeded), failed: \(result.failed)")
        print("by status: \(outcomes.joined(separator: ", "))")
        for sample in result.failureSamples { print("  failure: \(sample)") }
        print(String(format: "wall time: %.3f s", result.seconds))
        print(String(format: "throughput: %.0f notifications/s", throughput))
        print("latency: \(latency.summary)")
        let met = result.failed == 0 && throughput >= 2_000 && latency.percentile(0.99) <= 0.050
        print("target ≥ 2,000 notifications/s at p99 ≤ 50 ms: \(met ? "met" : "not met")")
    }

    /// Processing after the burst, and the rate of stored-and-processed notifications overall.
    private func report(_ drain: ProcessingDrain.Result, sent: HTTPLoad.Result) {
        print(String(format: "processing: %d of %d notifications still unprocessed when the last answer came; all processed %.1f s later",
                     drain.pendingAtStart, sent.succeeded, drain.seconds))
        if drain.seconds > 0 {
            print(String(format: "processing after the burst: %.0f notifications/s", Double(drain.pendingAtStart) / drain.seconds))
        }
        print(String(format: "stored and processed: %d notifications in %.1f s = %.0f notifications/s",
                     sent.succeeded, sent.seconds + drain.seconds, Double(sent.succeeded) / (sent.seconds + drain.seconds)))
    }

    private static func shellQuoted(_ value: String) -> String {
        let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/._-,:=+@"))
        if value.unicodeScalars.allSatisfy(safe.contains) { return value }
        return "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
