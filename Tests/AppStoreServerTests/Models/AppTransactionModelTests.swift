import AppStoreServer
import Foundation
import Testing

@Suite("App transaction model")
struct AppTransactionModelTests {
    @Test func decodesEveryField() throws {
        let appTransaction = try ModelFixture.decode(AppTransaction.self, fixture: "appTransaction")
        #expect(appTransaction == AppTransaction(
            receiptType: .localTesting,
            appAppleId: 531_412,
            bundleId: "com.example",
            applicationVersion: "1.2.3",
            versionExternalIdentifier: 512,
            receiptCreationDate: ModelFixture.date(1_698_148_900_000),
            originalPurchaseDate: ModelFixture.date(1_698_148_800_000),
            originalApplicationVersion: "1.1.2",
            deviceVerification: "device_verification_value",
            deviceVerificationNonce: UUID(uuidString: "48CCFA42-7431-4F22-9908-7E88983E105A"),
            preorderDate: ModelFixture.date(1_698_148_950_000),
            appTransactionId: "71134",
            originalPlatform: .iOS
        ))
    }

    @Test func rejectsMalformedNonce() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(AppTransaction.self, json: #"{"deviceVerificationNonce":"not-a-uuid"}"#)
        }
    }
}
