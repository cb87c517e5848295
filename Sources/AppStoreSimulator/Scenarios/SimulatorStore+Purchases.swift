import AppStoreServer
import Foundation

/// One-time purchases and the TEST notification.
extension SimulatorStore {
    /// A customer buys a consumable, non-consumable or non-renewing subscription: `ONE_TIME_CHARGE`.
    public func purchase(_ request: OneTimePurchaseRequest) async throws -> ScenarioResult {
        guard !request.productId.isEmpty else { throw SimulatorError.invalidRequest("productId is empty") }
        let type = request.type ?? .consumable
        guard type != .autoRenewable else {
            throw SimulatorError.invalidRequest("auto-renewable subscriptions are bought with subscribe")
        }
        let customer = try customer(request.appTransactionId, appAccountToken: request.appAccountToken)
        let purchaseDate = now
        let transactionId = ids.transactionId()
        let storefront = request.storefront ?? configuration.defaultStorefront
        let payload = JWSTransactionDecodedPayload(
            originalTransactionId: transactionId,
            transactionId: transactionId,
            bundleId: configuration.bundleId,
            productId: request.productId,
            purchaseDate: purchaseDate,
            originalPurchaseDate: purchaseDate,
            quantity: request.quantity ?? 1,
            type: type,
            appAccountToken: request.appAccountToken ?? customer.appAccountToken,
            inAppOwnershipType: request.inAppOwnershipType ?? .purchased,
            environment: configuration.environment,
            storefront: storefront,
            storefrontId: configuration.storefrontId(for: storefront),
            transactionReason: .purchase,
            currency: request.currency ?? configuration.defaultCurrency,
            price: request.price ?? 990,
            appTransactionId: customer.appTransactionId
        )
        insert(payload)
        return try await publish(.oneTimeCharge, transactionId: transactionId)
    }

    /// App Store Connect's "Request a Test Notification": a `TEST` notification (no transaction),
    /// with the token Get Test Notification Status looks it up by.
    public func sendTestNotification() async throws -> (token: String, notification: SimulatedNotification) {
        let token = "\(ids.uuid())_\(now.appStoreMilliseconds)"
        let result = try await publish(.test)
        testNotificationTokens[token] = result.notification.notificationUUID
        return (token, notification(uuid: result.notification.notificationUUID) ?? result.notification)
    }

    /// The TEST notification a token refers to, with its send attempts so far.
    public func testNotification(token: String) -> SimulatedNotification? {
        testNotificationTokens[token].flatMap { notification(uuid: $0) }
    }
}
