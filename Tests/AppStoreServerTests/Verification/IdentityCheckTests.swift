import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

extension VerificationTests {
    /// Bundle id, App Apple ID and environment checks of each payload kind.
    @Suite struct IdentityCheckTests {
        let pki: SimulatorPKI
        let signer: AppStoreSigner

        init() throws {
            pki = try TestValues.pki()
            signer = pki.signer()
        }

        private func verifier(_ environments: Set<AppStoreEnvironment>, appAppleId: Int64? = TestValues.appAppleId) throws
            -> SignedDataVerifier
        {
            try TestValues.verifier(root: pki.rootCertificateDER, environments: environments, appAppleId: appAppleId)
        }

        @Test func aNotificationForAnotherBundleIsRejected() async throws {
            let jws = try signer.sign(TestValues.notification(bundleId: "com.example.wrong"))
            await expectVerificationError("INVALID_APP_IDENTIFIER") { try await verifier([.sandbox]).verifyNotification(jws) }
        }

        @Test func aSandboxNotificationToAProductionOnlyVerifierIsRejected() async throws {
            let jws = try signer.sign(TestValues.notification(environment: .sandbox))
            await expectVerificationError("INVALID_ENVIRONMENT") { try await verifier([.production]).verifyNotification(jws) }
        }

        @Test func aProductionNotificationToASandboxOnlyVerifierIsRejected() async throws {
            let jws = try signer.sign(TestValues.notification(environment: .production))
            await expectVerificationError("INVALID_ENVIRONMENT") {
                try await verifier([.sandbox], appAppleId: nil).verifyNotification(jws)
            }
        }

        @Test func oneVerifierAcceptsProductionAndSandbox() async throws {
            let both = try verifier([.production, .sandbox])
            let production = try await both.verifyNotification(signer.sign(TestValues.notification(environment: .production)))
            let sandbox = try await both.verifyNotification(signer.sign(TestValues.notification(environment: .sandbox)))
            #expect(production.payload.data?.environment == .production)
            #expect(sandbox.payload.data?.environment == .sandbox)
        }

        @Test func aProductionNotificationWithoutAppAppleIdIsRejected() async throws {
            let jws = try signer.sign(TestValues.notification(environment: .production, appAppleId: nil))
            await expectVerificationError("INVALID_APP_IDENTIFIER") {
                try await verifier([.production, .sandbox]).verifyNotification(jws)
            }
        }

        @Test func xcodeAndLocalTestingAreNotAcceptedByDefault() async throws {
            for environment in [AppStoreEnvironment.xcode, .localTesting] {
                let jws = try signer.sign(TestValues.notification(environment: environment))
                await expectVerificationError("INVALID_ENVIRONMENT") {
                    try await verifier([.production, .sandbox]).verifyNotification(jws)
                }
            }
        }

        @Test func aNotificationWithoutAnyAppSectionIsRejected() async throws {
            let jws = try signer.sign(ResponseBodyV2DecodedPayload(notificationType: .test, signedDate: TestValues.signedDate))
            await expectVerificationError("INVALID_APP_IDENTIFIER") { try await verifier([.sandbox]).verifyNotification(jws) }
        }

        @Test func summaryIsTheIdentitySourceWithoutData() async throws {
            let payload = ResponseBodyV2DecodedPayload(
                notificationType: .renewalExtension, signedDate: TestValues.signedDate,
                summary: Summary(environment: .sandbox, appAppleId: TestValues.appAppleId, bundleId: "com.example.other")
            )
            await expectVerificationError("INVALID_APP_IDENTIFIER") {
                try await verifier([.sandbox]).verifyNotification(signer.sign(payload))
            }
        }

        @Test func externalPurchaseTokenEnvironmentComesFromTheSandboxPrefix() async throws {
            let payload = ResponseBodyV2DecodedPayload(
                notificationType: .externalPurchaseToken, signedDate: TestValues.signedDate,
                externalPurchaseToken: ExternalPurchaseToken(
                    externalPurchaseId: "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e",
                    tokenCreationDate: 1_698_148_900_000, appAppleId: TestValues.appAppleId, bundleId: TestValues.bundleId
                )
            )
            let jws = try signer.sign(payload)
            let verified = try await verifier([.sandbox]).verifyNotification(jws)
            #expect(verified.payload.externalPurchaseToken?.bundleId == TestValues.bundleId)
            await expectVerificationError("INVALID_ENVIRONMENT") { try await verifier([.production]).verifyNotification(jws) }
        }

        @Test func nestedTransactionAndRenewalInfoAreVerifiedAndDecoded() async throws {
            let renewal = JWSRenewalInfoDecodedPayload(signedDate: TestValues.signedDate, environment: .sandbox)
            let jws = try signer.sign(
                TestValues.notification(
                    signedTransactionInfo: signer.sign(TestValues.transaction()), signedRenewalInfo: signer.sign(renewal)
                )
            )
            let verified = try await verifier([.sandbox]).verifyNotification(jws)
            #expect(verified.transaction?.transactionId == "2000000000000001")
            #expect(verified.renewalInfo?.environment == .sandbox)
        }

        @Test func aNestedTransactionFromAnotherEnvironmentIsRejected() async throws {
            let jws = try signer.sign(
                TestValues.notification(
                    environment: .sandbox, signedTransactionInfo: signer.sign(TestValues.transaction(environment: .production))
                )
            )
            await expectVerificationError("INVALID_ENVIRONMENT") {
                try await verifier([.production, .sandbox]).verifyNotification(jws)
            }
        }

        @Test func aNestedTransactionForAnotherBundleIsRejected() async throws {
            let jws = try signer.sign(
                TestValues.notification(signedTransactionInfo: signer.sign(TestValues.transaction(bundleId: "com.evil")))
            )
            await expectVerificationError("INVALID_APP_IDENTIFIER") { try await verifier([.sandbox]).verifyNotification(jws) }
        }

        @Test func aTransactionForAnotherBundleIsRejected() async throws {
            let jws = try signer.sign(TestValues.transaction(bundleId: "com.example.x"))
            await expectVerificationError("INVALID_APP_IDENTIFIER") { try await verifier([.sandbox]).verifyTransaction(jws) }
        }

        @Test func aTransactionFromAnUnacceptedEnvironmentIsRejected() async throws {
            let jws = try signer.sign(TestValues.transaction(environment: .sandbox))
            await expectVerificationError("INVALID_ENVIRONMENT") { try await verifier([.production]).verifyTransaction(jws) }
        }

        @Test func renewalInfoChecksOnlyTheEnvironment() async throws {
            let good = try signer.sign(JWSRenewalInfoDecodedPayload(signedDate: TestValues.signedDate, environment: .sandbox))
            let info = try await verifier([.sandbox]).verifyRenewalInfo(good)
            #expect(info.environment == .sandbox)
            await expectVerificationError("INVALID_ENVIRONMENT") { try await verifier([.production]).verifyRenewalInfo(good) }
        }

        @Test func appTransactionChecksBundleAppAppleIdAndReceiptType() async throws {
            let base = AppTransaction(
                receiptType: .production, appAppleId: TestValues.appAppleId, bundleId: TestValues.bundleId,
                receiptCreationDate: TestValues.signedDate
            )
            let production = try verifier([.production, .sandbox])
            let decoded = try await production.verifyAppTransaction(signer.sign(base))
            #expect(decoded.receiptType == .production)

            var otherApp = base
            otherApp.appAppleId = 1
            await expectVerificationError("INVALID_APP_IDENTIFIER") { try await production.verifyAppTransaction(signer.sign(otherApp)) }

            var otherBundle = base
            otherBundle.bundleId = "com.example.x"
            await expectVerificationError("INVALID_APP_IDENTIFIER") { try await production.verifyAppTransaction(signer.sign(otherBundle)) }

            await expectVerificationError("INVALID_ENVIRONMENT") {
                try await verifier([.sandbox], appAppleId: nil).verifyAppTransaction(signer.sign(base))
            }
        }

        @Test func appTransactionValidatesAtItsReceiptCreationDate() async throws {
            let expired = AppTransaction(
                receiptType: .sandbox, bundleId: TestValues.bundleId,
                receiptCreationDate: Date(appStoreMilliseconds: 2_082_758_400_000)  // after the chain expired
            )
            await expectVerificationError("INVALID_CHAIN") { try await verifier([.sandbox]).verifyAppTransaction(signer.sign(expired)) }
        }

        @Test func rescindConsentCarriesAVerifiedAppTransaction() async throws {
            let appTransaction = AppTransaction(
                receiptType: .sandbox, bundleId: TestValues.bundleId, receiptCreationDate: TestValues.signedDate
            )
            let payload = try ResponseBodyV2DecodedPayload(
                notificationType: .rescindConsent, signedDate: TestValues.signedDate,
                appData: AppData(
                    appAppleId: TestValues.appAppleId, bundleId: TestValues.bundleId, environment: .sandbox,
                    signedAppTransactionInfo: signer.sign(appTransaction)
                )
            )
            let verified = try await verifier([.sandbox]).verifyNotification(signer.sign(payload))
            #expect(verified.appTransaction?.bundleId == TestValues.bundleId)
        }
    }
}
