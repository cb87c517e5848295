import AppStoreServer
import ArgumentParser
import Foundation
import Logging
import UnixSignals
import VerdictService

/// `verdict demo`: starts the App Store simulator and the Verdict service in this process,
/// wired together for two apps (Lumen, of the shipped rules, and Tempo, of `examples/tempo`), plays
/// a short scenario (Lumen's retention offers, refund requests, the cancel page, a team that cuts
/// seats and a team member's refund request; then a Tempo subscriber, decided by Tempo's rules and
/// signed with Tempo's key), prints what was decided and why, then keeps serving — with a
/// ready-to-paste `curl` for every endpoint — until SIGINT or SIGTERM. Everything is kept in a
/// temporary folder that is removed at exit.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "See Verdict decide: a simulated App Store, the service, and a short scenario.",
        discussion: """
            Runs an App Store simulator and the Verdict service in one process for two apps \
            (SQLite in a temporary folder): Lumen, a photo editor decided by the rules of \
            --rules-dir, and Tempo, a running coach decided by those of --tempo-rules-dir, each \
            with its own In-App Purchase key. It plays Lumen subscribers turning auto-renew off, \
            customers asking for refunds, the cancel page and a team cutting seats, then a Tempo \
            subscriber, and prints each decision with the rules' explanation. Then it keeps \
            serving so you can try the API with the printed tokens; Ctrl-C stops it and deletes \
            the temporary folder. Needs no network.
            """
    )

    @Option(help: "Port of the Verdict service (0 picks a free one).")
    var port: Int = 8080
    @Option(help: "Port of the App Store simulator (0 picks a free one).")
    var simulatorPort: Int = 0
    @Option(help: "Lumen's rule bundle folder, relative to the current directory.")
    var rulesDir: String = "Rules"
    @Option(help: "Tempo's rule bundle folder (the second app), relative to the current directory.")
    var tempoRulesDir: String = "examples/tempo"
    @Flag(help: "Play the scenario, print the results and exit instead of serving.")
    var noServe = false
    @Flag(help: "Show the service's logs (JSON lines on standard error, info level).")
    var verbose = false
    @Flag(help: "Print the rule engine's whole explanation for each case, every rule it checked.")
    var fullTrace = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535.") }
        guard (0...65535).contains(simulatorPort) else { throw ValidationError("--simulator-port must be 0…65535.") }
    }

    func run() async throws {
        let apps = [DemoApp.lumen(rulesDirectory: try Self.rulesDirectory(rulesDir, option: "--rules-dir")),
                    DemoApp.tempo(rulesDirectory: try Self.rulesDirectory(tempoRulesDir, option: "--tempo-rules-dir"))]
        let logLevel: Logger.Level = verbose ? .info : .error
        // The demo's service exports traces (and metrics) like `verdict serve` when OTEL_* ask for them.
        let (logger, telemetry) = try Telemetry.start(command: "verdict demo", logLevel: logLevel)
        let output = DemoOutput.standardOutput
        output.line("Starting the App Store simulator and the Verdict service…")
        let stack: DemoStack
        do {
            stack = try await DemoStack.start(
                DemoStack.Settings(port: port, simulatorPort: simulatorPort, apps: apps, logLevel: logLevel, telemetry: telemetry),
                logger: logger, shutdownSignals: [.sigterm, .sigint])
        } catch let error as ConfigurationError {
            throw error.exitCode(command: "verdict demo")
        } catch {
            throw Self.failure("cannot start: \(error)" + (port != 0 ? " — is port \(port) in use? Try --port 0." : ""))
        }
        // The scenario races the service: a signal stops the service (gracefully), and then the
        // scenario, still waiting on it, is cancelled rather than left to time out.
        var failure: (any Error)?
        var stopError: (any Error)?
        var serviceStopped = false
        var completed = false
        let noServe = self.noServe
        let fullTrace = self.fullTrace
        await withTaskGroup(of: Finished.self) { group in
            group.addTask {
                do {
                    try await Self.checkReady(stack)
                    Self.printStart(stack, to: output)
                    let summary = try await DemoScenario.playAll(on: stack, output: output, fullTrace: fullTrace)
                    try Task.checkCancellation()
                    await Self.guide(stack, summary).print(to: output, serving: !noServe)
                    return .scenario(nil)
                } catch {
                    return .scenario(error)
                }
            }
            group.addTask { .service(await stack.waitUntilStopped()) }
            for await finished in group {
                switch finished {
                case .scenario(let error):
                    if serviceStopped { break }
                    failure = error
                    completed = error == nil
                    if noServe || error != nil { await stack.shutdown() }
                case .service(let error):
                    stopError = error
                    serviceStopped = true
                    group.cancelAll()
                }
            }
        }
        await stack.cleanUp()
        if let failure { throw Self.failure("the scenario stopped: \(failure)") }
        if let stopError { throw Self.failure("the service stopped with an error: \(stopError)") }
        if !completed {
            output.line("\nInterrupted before the scenario finished; stopped and removed \(stack.directory.path).")
        } else if !noServe {
            output.line("Stopped; removed \(stack.directory.path).")
        }
    }

    /// Which of the two concurrent parts of ``run()`` ended, and with which error.
    private enum Finished: Sendable {
        case scenario((any Error)?)
        case service((any Error)?)
    }

    /// The closing guide, with a notification of the scenario saved for the POST example.
    static func guide(_ stack: DemoStack, _ summary: DemoSummary) async -> DemoEndpointGuide {
        let sample = await stack.store.notificationLog().first { $0.notificationUUID == summary.sampleNotificationUUID }
        return DemoEndpointGuide(
            serviceURL: stack.serviceURL, simulatorURL: stack.simulatorURL, token: stack.token, sharedToken: stack.sharedToken,
            apps: stack.apps, summary: summary,
            sampleNotificationFile: DemoEndpointGuide.saveSampleNotification(
                uuid: sample?.notificationUUID, signedPayload: sample?.signedPayload, in: stack.directory))
    }

    /// A rules folder as an absolute path: `path` relative to the current directory, or — for a
    /// relative path not found there — the nearest folder above it that has one at `path` (running
    /// from a subfolder of the repository works). `option` names the flag in the error.
    static func rulesDirectory(_ path: String, option: String) throws -> String {
        let fileManager = FileManager.default
        let current = URL(fileURLWithPath: fileManager.currentDirectoryPath, isDirectory: true)
        func bundle(at url: URL) -> Bool {
            fileManager.fileExists(atPath: url.appendingPathComponent("catalog.yaml").path)
        }
        let given = URL(fileURLWithPath: path, relativeTo: current).standardizedFileURL
        if bundle(at: given) { return given.path }
        if !path.hasPrefix("/") {
            var directory = current
            while directory.path != "/" {
                directory.deleteLastPathComponent()
                let candidate = directory.appendingPathComponent(path).standardizedFileURL
                if bundle(at: candidate) { return candidate.path }
            }
        }
        throw ValidationError(
            "no rule bundle at \(given.path) (expected catalog.yaml there); run from the repository root or pass \(option).")
    }

    /// Fails when the service is not ready (e.g. its rules were refused), with the reason.
    static func checkReady(_ stack: DemoStack) async throws {
        let (status, body) = try await stack.client.send(.GET, stack.serviceURL + "/readyz")
        guard status != 200 else { return }
        let checks = JSONValue.parse(body)?.objectValue ?? [:]
        let failing = checks.keys.sorted().compactMap { name -> String? in
            guard let check = checks[name]?.objectValue, check["ready"]?.boolValue == false else { return nil }
            return "\(name): \(check["detail"]?.stringValue ?? "not ready")"
        }
        throw DemoError("the service is not ready (GET /readyz answered \(status)):\n"
            + (failing.isEmpty ? String(decoding: body, as: UTF8.self) : failing.joined(separator: "\n"))
            + (checks["rules"]?.objectValue?["ready"]?.boolValue == false ? "\n(check the rules with: verdict rules test <dir>)" : ""))
    }

    /// What is running, before the scenario: the addresses, each app with its rules and key, the tokens.
    static func printStart(_ stack: DemoStack, to output: DemoOutput) {
        output.banner("Verdict demo — " + stack.apps.map { "\($0.name), \($0.tagline)" }.joined(separator: "; "))
        output.field("App Store sim", "\(stack.simulatorURL)   (Sandbox; one store and one In-App Purchase key per app)", indent: "  ")
        output.field("Verdict service", stack.serviceURL, indent: "  ")
        output.field("database", stack.environment["VERDICT_DATABASE_URL"] ?? "?", indent: "  ")
        output.field("config file", stack.configFile.path + "   (its \"apps\" list both apps)", indent: "  ")
        for app in stack.apps {
            output.field(app.name, "\(app.bundleId) · App Apple ID \(app.appAppleId) · key \(stack.store(of: app).issuedKey.keyId)\n"
                + "rules \(app.rulesDirectory)", indent: "  ")
        }
        output.field("API token", "\(stack.token)   (acts for \(stack.apps[0].bundleId) only)", indent: "  ")
        output.field("both apps' token", "\(stack.sharedToken)   (acts for every app)", indent: "  ")
        output.line()
        output.line("  Every step below is a signed App Store notification, delivered by the simulator over HTTP")
        output.line("  to the service's one /v1/notifications (the payload's bundle id picks the app), and")
        output.line("  processed before the next step.")
    }

    /// Prints `verdict demo: <message>` on standard error; the exit status to throw.
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("verdict demo: \(message)\n".utf8))
        return .failure
    }
}
