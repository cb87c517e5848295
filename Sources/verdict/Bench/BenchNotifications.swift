import AppStoreServer
import AppStoreSimulator
import Foundation

/// Unique, fully signed notifications for benchmarks: each an outer JWS with its own signed
/// transaction and renewal info, so every notification costs a verifier three ES256 checks.
enum BenchNotifications {
    static let bundleId = "com.example.bench"
    static let appAppleId: Int64 = 1_234_567_890

    /// What the minted notifications are about.
    struct Template: Sendable {
        /// DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED (a renewal switched off) or DID_RENEW.
        enum Event: Sendable { case autoRenewDisabled, renewal }

        var event: Event = .autoRenewDisabled
        var bundleId: String = BenchNotifications.bundleId
        var environment: AppStoreEnvironment = .production
        /// Written into `data.appAppleId` only for Production (Apple omits it in the sandbox).
        var appAppleId: Int64 = BenchNotifications.appAppleId
        var productId = "com.example.bench.monthly"
    }

    /// Mints `count` DID_CHANGE_RENEWAL_STATUS notifications (the `bench verify` workload).
    static func mint(count: Int, signer: AppStoreSigner) throws -> [String] {
        try mint(count: count, template: Template(), signer: signer)
    }

    /// Mints `count` notifications shaped by `template`, numbered from `first` (the number picks the
    /// subscription's transaction ids). Every notification has a fresh random notificationUUID.
    static func mint(count: Int, first: Int = 0, template: Template, signer: AppStoreSigner) throws -> [String] {
        let now = Date()
        return try (first..<first + count).map { index in
            try notification(index: index, template: template, signer: signer, now: now)
        }
    }

    /// Mints like ``mint(count:first:template:signer:)``, spread over every core (signing is the
    /// slow part: three ES256 signatures per notification). The result keeps index order.
    static func mintInParallel(count: Int, template: Template, signer: AppStoreSigner) async throws -> [String] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count))
        let chunk = (count + workers - 1) / workers
        return try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for worker in 0..<workers {
                let first = worker * chunk
                let size = min(chunk, count - first)
                guard size > 0 else { continue }
                group.addTask { (worker, try mint(count: size, first: first, template: template, signer: signer)) }
            }
            var chunks = [[String]](repeating: [], count: workers)
            for try await (worker, minted) in group { chunks[worker] = minted }
            return chunks.flatMap { $0 }
        }
    }

    private static func notification(index: Int, template: Template, signer: AppStoreSigner, now: Date) throws -> String {
        let originalTransactionId = String(2_000_000_000_000 + index)
        let isRenewal = template.event == .renewal
        // A renewal is a new transaction of the same subscription, one period after the first.
        let transactionId = isRenewal ? String(2_100_000_000_000 + index) : originalTransactionId
        let originalPurchase = now.addingTimeInterval(isRenewal ? -31 * 86_400 : -86_400)
        let purchase = isRenewal ? now.addingTimeInterval(-60) : originalPurchase
        let expires = purchase.addingTimeInterval(30 * 86_400)
        let transaction = JWSTransactionDecodedPayload(
            originalTransactionId: originalTransactionId,
            transactionId: transactionId,
            webOrderLineItemId: String(3_000_000_000_000 + index),
            bundleId: template.bundleId,
            productId: template.productId,
            subscriptionGroupIdentifier: "21000000",
            purchaseDate: purchase,
            originalPurchaseDate: originalPurchase,
            expiresDate: expires,
            quantity: 1,
            type: .autoRenewable,
            inAppOwnershipType: .purchased,
            signedDate: now,
            environment: template.environment,
            storefront: "USA",
            storefrontId: "143441",
            transactionReason: isRenewal ? .renewal : .purchase,
            currency: "USD",
            price: 9_990,
            appTransactionId: String(4_000_000_000_000 + index)
        )
        let renewalInfo = JWSRenewalInfoDecodedPayload(
            originalTransactionId: originalTransactionId,
            autoRenewProductId: template.productId,
            productId: template.productId,
            autoRenewStatus: isRenewal ? .on : .off,
            signedDate: now,
            environment: template.environment,
            recentSubscriptionStartDate: originalPurchase,
            renewalDate: expires,
            currency: "USD",
            renewalPrice: 9_990,
            appTransactionId: String(4_000_000_000_000 + index)
        )
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: isRenewal ? .didRenew : .didChangeRenewalStatus,
            subtype: isRenewal ? nil : .autoRenewDisabled,
            notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(
                environment: template.environment,
                appAppleId: template.environment == .production ? template.appAppleId : nil,
                bundleId: template.bundleId,
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
