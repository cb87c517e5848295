import AppStoreServer
import ArgumentParser
import Foundation
import VerdictService

/// `verdict appstore test-notification`: asks the App Store to send a TEST notification, polls
/// Apple's delivery status, and checks whether the notification reached this service's database.
struct TestNotificationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-notification",
        abstract: "Request a TEST notification and report whether it reached this service."
    )

    @OptionGroup var options: ServiceOptions
    @OptionGroup var app: AppOption
    @Option(help: "Production or Sandbox.")
    var environment: String = AppStoreEnvironment.sandbox.rawValue
    @Option(help: "Seconds to wait for delivery.")
    var timeout: Int = 60

    func run() async throws {
        let configuration = try await options.configuration()
        let logger = ServiceOptions.bootstrapLogging(level: .warning)
        let server = try await VerdictServer.open(configuration: configuration, logger: logger)
        defer { Task { try? await server.shutdown() } }
        let app = try self.app.select(in: server)
        let client: AppStoreServerAPIClient
        do {
            client = try app.appStore.client(for: AppStoreEnvironment(rawValue: environment))
        } catch {
            throw ValidationError("test-notification needs the In-App Purchase key: \(app.appStore.unavailableReason ?? "unavailable")")
        }
        let token = try await client.requestTestNotification().testNotificationToken ?? ""
        print("requested a TEST notification (\(environment)); token \(token.prefix(12))…")
        let deadline = Date().addingTimeInterval(TimeInterval(timeout))
        var reached = false
        while Date() < deadline {
            let status = try await client.getTestNotificationStatus(testNotificationToken: token)
            let attempts = status.sendAttempts ?? []
            if let signed = status.signedPayload,
               let notification = try? await app.verifier.verifyNotification(signed),
               let uuid = notification.payload.notificationUUID,
               let record = try await app.repository.notification(uuid: uuid) {
                print("reached Verdict: notification \(uuid) stored (\(record.state.rawValue)); Apple's attempts: \(attempts.map { $0.sendAttemptResult?.rawValue ?? "?" })")
                reached = true
                break
            }
            if let last = attempts.last?.sendAttemptResult, last != .success {
                print("Apple's attempt failed: \(last.rawValue)")
            }
            try await Task.sleep(for: .seconds(2))
        }
        try await server.shutdown()
        if !reached {
            print("the TEST notification did not reach this service's database within \(timeout) s")
            throw ExitCode.failure
        }
    }
}
