import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

extension VerificationTests {
    /// Payloads minted with Apple's test leaf key and chain.
    @Suite struct MintedConsumptionRequestTests {
        @Test func consumptionRequestWithNestedTransactionVerifiesAndDecodes() async throws {
            let signer = try AppleFixtures.signer()
            let signedTransaction = try signer.sign(TestValues.transaction())
            let payload = ResponseBodyV2DecodedPayload(
                notificationType: .consumptionRequest,
                notificationUUID: "0f1e2d3c-4b5a-4968-8776-655443322110",
                data: NotificationData(
                    environment: .sandbox, appAppleId: 1234, bundleId: "com.example",
                    signedTransactionInfo: signedTransaction, consumptionRequestReason: .unintendedPurchase
                ),
                version: "2.0",
                signedDate: Date(appStoreMilliseconds: 1_698_148_900_000)
            )
            let verifier = try TestValues.verifier(root: AppleFixtures.testCA())

            let verified = try await verifier.verifyNotification(signer.sign(payload))

            #expect(verified.payload.notificationType == .consumptionRequest)
            #expect(verified.payload.data?.consumptionRequestReason == .unintendedPurchase)
            #expect(verified.payload.signedDate == Date(appStoreMilliseconds: 1_698_148_900_000))
            let transaction = try #require(verified.transaction)
            #expect(transaction.transactionId == "2000000000000001")
            #expect(transaction.type == .consumable)
            #expect(transaction.price == 990)
            #expect(transaction.currency == "USD")
            #expect(transaction.environment == .sandbox)
            #expect(verified.renewalInfo == nil)
        }

        @Test func nestedTransactionWithABadSignatureFailsTheNotification() async throws {
            let signer = try AppleFixtures.signer()
            let signedTransaction = try signer.sign(TestValues.transaction())
            let tampered = JWSSurgery.replacing(
                signedTransaction, segment: 1,
                with: try AppStoreJSON.encoder().encode(
                    JWSTransactionDecodedPayload(transactionId: "forged", bundleId: "com.example", environment: .sandbox)
                )
            )
            let notification = try signer.sign(TestValues.notification(signedTransactionInfo: tampered))
            let verifier = try TestValues.verifier(root: AppleFixtures.testCA())
            await expectVerificationError("INVALID_SIGNATURE") { try await verifier.verifyNotification(notification) }
        }
    }
}
