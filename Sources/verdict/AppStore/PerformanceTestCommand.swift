import AppStoreServer
import ArgumentParser
import Foundation
import VerdictService

/// `verdict appstore performance-test`: Apple's realtime performance test (Sandbox), which must
/// pass before Apple accepts a Production realtime URL.
struct PerformanceTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "performance-test",
        abstract: "Run Apple's Retention Messaging performance test against the Sandbox realtime URL and print its result."
    )

    @OptionGroup var options: ServiceOptions
    @OptionGroup var app: AppOption
    @Option(help: "The original transaction id of a Sandbox subscription (the test's requests name it).")
    var originalTransactionId: String
    @Option(help: "Seconds to wait for Apple's result (results can stay PENDING for a long time).")
    var timeout: Int = 3600
    @Option(help: "Seconds between two reads of the result.")
    var pollInterval: Int = 10

    func validate() throws {
        guard (1...86_400).contains(timeout), (1...600).contains(pollInterval) else {
            throw ValidationError("--timeout must be 1–86400 seconds and --poll-interval 1–600")
        }
    }

    func run() async throws {
        let configuration = try await options.configuration()
        let logger = ServiceOptions.bootstrapLogging(level: .warning)
        let server = try await VerdictServer.open(configuration: configuration, logger: logger)
        let outcome: Result<PerformanceTestResultResponse, any Error>
        do {
            outcome = .success(try await test(try app.select(in: server), among: server.apps))
        } catch {
            outcome = .failure(error)
        }
        try await server.shutdown()
        let result = try outcome.get()
        print(Self.render(result))
        guard result.result == .pass else { throw ExitCode.failure }
    }

    private func test(_ app: AppContext, among apps: AppDirectory) async throws -> PerformanceTestResultResponse {
        // With several apps the service tells realtime requests apart by App Apple ID alone.
        guard apps.all.count == 1 || app.configuration.appAppleId != nil else {
            throw ValidationError("\(app.bundleId) has no appAppleId: with several apps, the service answers its realtime requests only with one")
        }
        let client: AppStoreServerAPIClient
        do {
            client = try app.appStore.client(for: .sandbox)
        } catch {
            throw ValidationError("performance-test needs the In-App Purchase key and Sandbox: \(app.appStore.unavailableReason ?? "unavailable")")
        }
        do {
            // Apple refuses an id that is not an original transaction id; say so before starting.
            let info = try await client.getTransactionInfo(transactionId: originalTransactionId)
            guard let signed = info.signedTransactionInfo else { throw ValidationError("Apple returned no transaction for \(originalTransactionId)") }
            let transaction = try await app.verifier.verifyTransaction(signed)
            guard transaction.originalTransactionId == originalTransactionId else {
                throw ValidationError(
                    "\(originalTransactionId) is not an original transaction id (its original is \(transaction.originalTransactionId ?? "unknown"))")
            }
            let started = try await client.initiatePerformanceTest(originalTransactionId: originalTransactionId)
            guard let id = started.requestId else { throw ValidationError("Apple started the test without a request id") }
            print("performance test \(id) started: \(Self.render(started.config))")
            let deadline = ContinuousClock.now + .seconds(timeout)
            var result = try await client.getPerformanceTestResult(requestId: id)
            while result.result == .pending || result.result == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .seconds(pollInterval))
                result = try await client.getPerformanceTestResult(requestId: id)
            }
            return result
        } catch let failure as AppStoreAPIFailure {
            if failure.httpStatus == 404, failure.rawErrorCode == nil {
                throw ValidationError("Apple answered 404: this account has no access to realtime Retention Messaging")
            }
            throw ValidationError("the App Store answered: \(failure)")
        }
    }

    static func render(_ config: PerformanceTestConfig?) -> String {
        guard let config else { return "no parameters given" }
        return "\(config.totalRequests.map(String.init) ?? "?") requests, \(config.maxConcurrentRequests.map(String.init) ?? "?") at once; "
            + "pass: \(config.successRateThreshold.map(String.init) ?? "?")% within \(config.responseTimeThreshold.map(String.init) ?? "?") ms"
    }

    static func render(_ result: PerformanceTestResultResponse) -> String {
        let times = result.responseTimes
        func ms(_ value: Int64?) -> String { value.map { "\($0) ms" } ?? "–" }
        var lines = [
            "result \(result.result?.rawValue ?? "unknown") — target \(result.target ?? "?")",
            "success rate \(result.successRate.map { "\($0)%" } ?? "–") (threshold \(result.config?.successRateThreshold.map { "\($0)%" } ?? "?")), pending \(result.numPending ?? 0)",
            "response times: average \(ms(times?.average)), p50 \(ms(times?.p50)), p90 \(ms(times?.p90)), p95 \(ms(times?.p95)), p99 \(ms(times?.p99)) (threshold \(ms(result.config?.responseTimeThreshold)))",
        ]
        let failures = (result.failures ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        if !failures.isEmpty { lines.append("failures: " + failures.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}
