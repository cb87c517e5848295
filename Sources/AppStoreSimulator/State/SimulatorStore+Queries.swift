import AppStoreServer
import Foundation

/// Filters of Get Transaction History, as parsed from the query string.
struct TransactionHistoryFilter: Sendable {
    var startDate: Date?
    var endDate: Date?
    var productIds: [String] = []
    var productTypes: [TransactionHistoryRequest.ProductType] = []
    var descending = false
    var subscriptionGroupIdentifiers: [String] = []
    var inAppOwnershipType: InAppOwnershipType?
    var revoked: Bool?

    func matches(_ transaction: JWSTransactionDecodedPayload) -> Bool {
        if let startDate, let purchase = transaction.purchaseDate, purchase < startDate { return false }
        if let endDate, let purchase = transaction.purchaseDate, purchase >= endDate { return false }
        if !productIds.isEmpty, !productIds.contains(transaction.productId ?? "") { return false }
        if !productTypes.isEmpty {
            let queryType: TransactionHistoryRequest.ProductType? = switch transaction.type {
            case .autoRenewable?: .autoRenewable
            case .nonRenewable?: .nonRenewable
            case .consumable?: .consumable
            case .nonConsumable?: .nonConsumable
            default: nil
            }
            guard let queryType, productTypes.contains(queryType) else { return false }
        }
        if !subscriptionGroupIdentifiers.isEmpty,
           !subscriptionGroupIdentifiers.contains(transaction.subscriptionGroupIdentifier ?? "") { return false }
        if let inAppOwnershipType, transaction.inAppOwnershipType != inAppOwnershipType { return false }
        if let revoked, (transaction.revocationDate != nil) != revoked { return false }
        return true
    }
}

/// One page of a revision-paged list: signed items, the position to continue from, whether more remain.
struct RevisionPage: Sendable {
    let signedItems: [String]
    let position: UInt64
    let hasMore: Bool
}

/// Filters of Get Notification History (already validated).
struct NotificationHistoryFilter: Sendable {
    var startDate: Date
    var endDate: Date
    var notificationType: NotificationTypeV2?
    var notificationSubtype: Subtype?
    var transactionId: String?
    var onlyFailures: Bool
}

/// How the API resolved an id from a request path.
enum TransactionLookup: Equatable {
    case transaction(JWSTransactionDecodedPayload)
    case appTransaction(String)
    case unknown
}

/// Read-side queries behind the App Store Server API endpoints.
extension SimulatorStore {
    /// Resolves a transaction id, original transaction id or app transaction id.
    func lookUp(_ id: String) -> TransactionLookup {
        if let transaction = transactions[id]?.payload { return .transaction(transaction) }
        if customers[id] != nil { return .appTransaction(id) }
        return .unknown
    }

    /// The customer (app transaction id) any id belongs to.
    func customerId(for id: String) -> String? {
        switch lookUp(id) {
        case .transaction(let transaction): transaction.appTransactionId
        case .appTransaction(let customer): customer
        case .unknown: nil
        }
    }

    /// A page (≤ `limit`) of the customer's transactions in "recently modified" order after
    /// `position` (before it, descending).
    func transactionHistory(customer: String, filter: TransactionHistoryFilter, after position: UInt64?,
                            limit: Int = 20) throws -> RevisionPage {
        let records = transactions.values
            .filter { $0.payload.appTransactionId == customer && filter.matches($0.payload) }
        return try page(records, descending: filter.descending, after: position, limit: limit)
    }

    /// A page (≤ 20) of the customer's refunded (revoked) transactions, in revocation order —
    /// with the multiseat transactions a seat refund revoked some seats of.
    func refundHistory(customer: String, after position: UInt64?, limit: Int = 20) throws -> RevisionPage {
        let records = transactions.values
            .filter { $0.payload.appTransactionId == customer }
            .filter { $0.payload.revocationDate != nil || ($0.payload.resolvedRevokedSeatQuantity ?? 0) > 0 }
        return try page(records, descending: false, after: position, limit: limit)
    }

    private func page(_ records: some Sequence<TransactionRecord>, descending: Bool, after position: UInt64?,
                      limit: Int) throws -> RevisionPage {
        var sorted = records.sorted { $0.modification < $1.modification }
        if descending { sorted.reverse() }
        let remaining = sorted.filter { record in
            guard let position else { return true }
            return descending ? record.modification < position : record.modification > position
        }
        let chosen = Array(remaining.prefix(limit))
        let signed = try chosen.map { try signedTransaction($0.payload.transactionId!) }
        let next = chosen.last?.modification ?? position ?? (descending ? UInt64.max : 0)
        return RevisionPage(signedItems: signed, position: next, hasMore: remaining.count > chosen.count)
    }

    /// The customer's subscriptions grouped by subscription group, each with its latest
    /// transaction, renewal info and status, restricted to `statuses` when not empty.
    func subscriptionStatuses(customer: String, statuses: [SubscriptionStatus]) throws -> [SubscriptionGroupIdentifierItem] {
        let records = subscriptions.values
            .filter { $0.appTransactionId == customer && (statuses.isEmpty || statuses.contains($0.state)) }
            .sorted { $0.originalTransactionId < $1.originalTransactionId }
        var groups: [String: [LastTransactionsItem]] = [:]
        var order: [String] = []
        for record in records {
            if groups[record.subscriptionGroupIdentifier] == nil { order.append(record.subscriptionGroupIdentifier) }
            groups[record.subscriptionGroupIdentifier, default: []].append(LastTransactionsItem(
                status: record.state,
                originalTransactionId: record.originalTransactionId,
                signedTransactionInfo: try signedTransaction(record.latestTransactionId),
                signedRenewalInfo: try signer.sign(renewalInfo(for: record))
            ))
        }
        return order.map { SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0]) }
    }

    /// A page (≤ 20) of the notification log matching `filter`, after log index `position`.
    func notificationHistory(_ filter: NotificationHistoryFilter, after position: Int?, limit: Int = 20)
        -> (items: [NotificationHistoryResponseItem], position: Int, hasMore: Bool)
    {
        let filterCustomer = filter.transactionId.flatMap { customerId(for: $0) }
        // An end date in the future means "up to now" (Apple), so nothing already sent is cut off.
        let endDate = filter.endDate > now ? Date.distantFuture : filter.endDate
        let matching = notifications.indices.filter { index in
            let notification = notifications[index]
            if let position, index <= position { return false }
            guard notification.signedDate >= filter.startDate, notification.signedDate < endDate else { return false }
            if let type = filter.notificationType, notification.notificationType != type { return false }
            if let subtype = filter.notificationSubtype, notification.subtype != subtype { return false }
            if filter.transactionId != nil, notification.appTransactionId == nil
                || notification.appTransactionId != filterCustomer { return false }
            if filter.onlyFailures, notification.wasDelivered { return false }
            return true
        }
        let chosen = Array(matching.prefix(limit))
        let items = chosen.map { index in
            NotificationHistoryResponseItem(
                signedPayload: notifications[index].signedPayload,
                sendAttempts: notifications[index].sendAttempts.map {
                    SendAttemptItem(attemptDate: $0.attemptDate, sendAttemptResult: $0.sendAttemptResult)
                }
            )
        }
        return (items, chosen.last ?? position ?? -1, matching.count > chosen.count)
    }
}
