import Foundation
import VerdictStorage

/// What `verdict bench console` stores around each seeded decision, as the service would have:
/// the notification it was decided on (stored processed), the customer (once) and one
/// transaction per notification — so the Overview counts notifications and the Customer page
/// finds a timeline.
actor ConsoleBenchSeeding {
    let store: any DecisionImportStore
    /// Customers already stored.
    private var customers: Set<String> = []

    init(store: any DecisionImportStore) {
        self.store = store
    }

    /// Stores the notifications, new customers and transactions of one batch of decisions.
    func store(offers: [OfferDecisionRecord], refunds: [ConsumptionRequestRecord]) async throws {
        var notifications: [NewNotification] = []
        var transactions: [TransactionRecord] = []
        var newCustomers: [CustomerRecord] = []
        func add(uuid: String?, type: String, subtype: String?, otid: String, transactionId: String, at: Int64) {
            guard let uuid else { return }
            if customers.insert(otid).inserted {
                newCustomers.append(CustomerRecord(
                    originalTransactionId: otid, appAccountToken: nil, appTransactionId: nil, environment: "Production",
                    firstSeenAt: at, historyRevision: nil, historySyncedAt: nil))
            }
            let decoded = #"{"notificationType":"\#(type)","notificationUUID":"\#(uuid)"}"#
            notifications.append(NewNotification(
                notificationUUID: uuid, notificationType: type, subtype: subtype, environment: "Production",
                bundleId: "com.example.lumen", originalTransactionId: otid, transactionId: transactionId,
                signedDate: at - 1_000, receivedAt: at, source: .delivery, signedPayload: "(not kept by the bench)",
                decodedJSON: decoded))
            transactions.append(TransactionRecord(
                transactionId: transactionId, originalTransactionId: otid, productId: "com.example.lumen.monthly",
                appAccountToken: nil, environment: "Production", purchaseDate: at - 30 * 86_400_000, revocationDate: nil,
                signedDate: at - 1_000, decodedJSON: #"{"transactionId":"\#(transactionId)","price":9990,"currency":"USD"}"#))
        }
        for offer in offers {
            let expired = offer.trigger == "EXPIRED"
            add(uuid: offer.notificationUUID, type: expired ? "EXPIRED" : "DID_CHANGE_RENEWAL_STATUS",
                subtype: expired ? "VOLUNTARY" : "AUTO_RENEW_DISABLED", otid: offer.originalTransactionId,
                transactionId: "bench-\(offer.id)", at: offer.decidedAt)
        }
        for request in refunds {
            add(uuid: request.notificationUUID, type: "CONSUMPTION_REQUEST", subtype: nil, otid: request.originalTransactionId,
                transactionId: request.transactionId, at: request.decidedAt)
        }
        try await store.importCustomers(newCustomers)
        try await store.importNotifications(notifications)
        try await store.importTransactions(transactions)
    }
}
