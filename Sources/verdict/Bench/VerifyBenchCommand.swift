import AppStoreServer
import AppStoreSimulator
import ArgumentParser
import Foundation

/// `verdict bench verify`: full-notification verifications per second (outer JWS plus the nested
/// transaction and renewal info), over notifications minted by a simulator PKI.
struct VerifyBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify signed notifications (outer + transaction + renewal info) and print notifications per second."
    )

    @Option(help: "Notifications per run.")
    var count = 20_000

    func run() async throws {
        let pki = try SimulatorPKI()
        let signer = pki.signer()
        let notifications = try BenchNotifications.mint(count: count, signer: signer)
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.rootCertificateDER],
            bundleId: BenchNotifications.bundleId,
            appAppleId: BenchNotifications.appAppleId,
            environments: [.production, .sandbox]
        )
        print("verifying \(count) notifications, each 3 JWS (ES256, chain of 3, offline checks)")
        let figures = try await Throughput(unit: "notifications", count: count).measure("verify") { index in
            let verified = try await verifier.verifyNotification(notifications[index])
            guard verified.transaction != nil, verified.renewalInfo != nil else {
                throw ValidationError("notification \(index) lost its nested payloads")
            }
        }
        let statistics = verifier.statistics
        print("chain validations: \(statistics.chainValidations), cache hits: \(statistics.cacheHits)")
        if let single = figures.first {
            print(String(format: "per core: %.0f notifications/s (%.0f JWS/s); target ≥ 3000 notifications/s",
                         single.perSecond, single.perSecond * 3))
        }
    }
}
