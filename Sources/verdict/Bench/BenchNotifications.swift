import AppStoreServer
import AppStoreSimulator
import Foundation

/// Unique, fully signed DID_CHANGE_RENEWAL_STATUS notifications for benchmarks.
enum BenchNotifications {
    static let bundleId = "com.example.bench"
    static let appAppleId: Int64 = 1_234_567_890

    /// Mints `count` notifications, each with its own signed transaction and renewal info.
    static func mint(count: Int, signer: AppStoreSigner) throws -> [String] {
        let now = Date()
        return try (0..<count).map { index in
            let originalTransactionId = String(2_000_000_000_000 + index)
            let transaction = JWSTransactionDecodedPayload(
                originalTransactionId: originalTransactionId,
                transactionId: originalTransactionId,
                bundleId: bundleId,
                productId: "com.example.bench.monthly",
                subscriptionGroupIdentifier: "21000000",
                purchaseDate: now.addingTimeInterval(-86_400),
                originalPurchaseDate: now.addingTimeInterval(-86_400),
                expiresDate: now.addingTimeInterval(29 * 86_400),
                quantity: 1,
                type: .autoRenewable,
                inAppOwnershipType: .purchased,
                signedDate: now,
                environment: .production,
                storefront: "USA",
                transactionReason: .purchase,
                currency: "USD",
                price: 9_990
            )
            let renewalInfo = JWSRenewalInfoDecodedPayload(
                originalTransactionId: originalTransactionId,
                autoRenewProductId: "com.example.bench.monthly",
                productId: "com.example.bench.monthly",
                autoRenewStatus: .off,
                signedDate: now,
                environment: .production,
                currency: "USD",
                renewalPrice: 9_990
            )
            let payload = ResponseBodyV2DecodedPayload(
                notificationType: .didChangeRenewalStatus,
                subtype: .autoRenewDisabled,
                notificationUUID: UUID().uuidString.lowercased(),
                data: NotificationData(
                    environment: .production,
                    appAppleId: appAppleId,
                    bundleId: bundleId,
                    bundleVersion: "1.0",
                    signedTransactionInfo: try signer.sign(transaction),
                    signedRenewalInfo: try signer.sign(renewalInfo),
                    status: .active
                ),
                version: "2.0",
                signedDate: now
            )
            return try signer.sign(payload)
        }
    }
}
