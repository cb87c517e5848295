import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

extension VerificationTests {
    /// Apple's own signed TEST notification against Apple's test root.
    @Suite struct AppleVectorVerificationTests {
        @Test func testNotificationVerifiesAsSandboxComExample() async throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: 1234,
                environments: [.sandbox]
            )
            let verified = try await verifier.verifyNotification(AppleFixtures.testNotification())
            #expect(verified.payload.notificationType == .test)
            #expect(verified.payload.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
            #expect(verified.payload.signedDate == AppleFixtures.testNotificationSignedDate)
            #expect(verified.payload.data?.bundleId == "com.example")
            #expect(verified.payload.data?.appAppleId == 1234)
            #expect(verified.payload.data?.environment == .sandbox)
            #expect(verified.transaction == nil && verified.renewalInfo == nil && verified.appTransaction == nil)
        }

        @Test func testNotificationValidatesAtItsSignedDateNotTheClock() async throws {
            // The clock says 2040, after the test chain expired: offline checks must use signedDate.
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: nil,
                environments: [.sandbox], now: { Date(appStoreMilliseconds: 2_208_988_800_000) }
            )
            let verified = try await verifier.verifyNotification(AppleFixtures.testNotification())
            #expect(verified.payload.notificationType == .test)
        }

        @Test func productionOnlyVerifierRejectsTheSandboxVector() async throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: 1234,
                environments: [.production]
            )
            await expectVerificationError("INVALID_ENVIRONMENT") {
                try await verifier.verifyNotification(AppleFixtures.testNotification())
            }
        }

        /// Apple's vector: a production verifier for app 1235 reports the identifier before the environment.
        @Test func productionOnlyVerifierWithAnotherAppAppleIdReportsIdentifierFirst() async throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: 1235,
                environments: [.production]
            )
            await expectVerificationError("INVALID_APP_IDENTIFIER") {
                try await verifier.verifyNotification(AppleFixtures.testNotification())
            }
        }

        @Test func sandboxAcceptedAlongsideProductionSkipsTheAppAppleIdOfSandboxPayloads() async throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: 1235,
                environments: [.production, .sandbox]
            )
            let verified = try await verifier.verifyNotification(AppleFixtures.testNotification())
            #expect(verified.payload.data?.environment == .sandbox)
        }

        @Test func productionPayloadWithAnotherAppAppleIdIsRejected() async throws {
            let jws = try AppleFixtures.signer().sign(TestValues.notification(environment: .production, appAppleId: 9999))
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: 1234,
                environments: [.production, .sandbox]
            )
            await expectVerificationError("INVALID_APP_IDENTIFIER") { try await verifier.verifyNotification(jws) }
        }

        @Test func productionPayloadWithTheConfiguredAppAppleIdVerifies() async throws {
            let jws = try AppleFixtures.signer().sign(TestValues.notification(environment: .production, appAppleId: 1234))
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: 1234,
                environments: [.production, .sandbox]
            )
            let verified = try await verifier.verifyNotification(jws)
            #expect(verified.payload.data?.environment == .production)
        }

        @Test func otherBundleIdIsRejected() async throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example.x", appAppleId: nil,
                environments: [.sandbox]
            )
            await expectVerificationError("INVALID_APP_IDENTIFIER") {
                try await verifier.verifyNotification(AppleFixtures.testNotification())
            }
        }

        @Test func theVectorFailsAgainstAppleRootCAG3() async throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleRootCertificates.appleRootCAG3], bundleId: "com.example", appAppleId: nil,
                environments: [.sandbox]
            )
            await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(AppleFixtures.testNotification())
            }
        }
    }
}
