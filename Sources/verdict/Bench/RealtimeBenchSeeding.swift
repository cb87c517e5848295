import AppStoreServer
import Foundation
import VerdictService
import VerdictStorage

/// The subscribers `verdict bench realtime` stores before it measures: each with its customer
/// row, its transactions (Apple's JSON, as the service stores a verified transaction) and its
/// renewal info. Four in ten are annual subscribers at full price (the Lumen rules answer them
/// with a signed offer), two in ten annual subscribers who paid less (another plan is suggested),
/// four in ten monthly subscribers with one to six payments (a message).
enum RealtimeBenchSeeding {
    static let bundleId = "com.lumen.app"
    static let appAppleId: Int64 = 1_234_567_890
    /// Customers stored per import (one transaction each per table).
    static let batch = 2_000

    /// The originalTransactionId of customer `index`.
    static func originalTransactionId(_ index: Int) -> String { String(3_000_000_000_000_000 + index) }

    /// Stores `customers` subscribers, `batch` at a time; returns the seconds it took and the
    /// transactions stored.
    static func seed(_ customers: Int, into store: any DecisionImportStore, now: Date) async throws -> (seconds: Double, transactions: Int) {
        let started = ContinuousClock.now
        var stored = 0
        for first in stride(from: 0, to: customers, by: batch) {
            var customerRows: [CustomerRecord] = []
            var transactions: [TransactionRecord] = []
            var renewals: [RenewalInfoRecord] = []
            for index in first..<min(first + batch, customers) {
                let history = history(index, now: now)
                let otid = originalTransactionId(index)
                customerRows.append(CustomerRecord(
                    originalTransactionId: otid, appAccountToken: nil, appTransactionId: nil, environment: "Sandbox",
                    firstSeenAt: history.first?.purchaseDate?.appStoreMilliseconds ?? 0, historyRevision: nil, historySyncedAt: nil))
                transactions += history.compactMap { TransactionRecord($0, json: nil) }
                if let last = history.last, let renewal = RenewalInfoRecord(renewalInfo(after: last, now: now), json: nil) {
                    renewals.append(renewal)
                }
            }
            try await store.importCustomers(customerRows)
            try await store.importTransactions(transactions)
            try await store.importRenewalInfo(renewals)
            stored += transactions.count
        }
        return ((ContinuousClock.now - started).seconds, stored)
    }

    /// Customer `index`'s payments, oldest first, the last one current at `now`.
    static func history(_ index: Int, now: Date) -> [JWSTransactionDecodedPayload] {
        let kind = index % 10
        let annual = kind < 6
        let payments = annual ? 1 : 1 + index % 6
        let period: TimeInterval = annual ? 365 * 86_400 : 30 * 86_400
        let otid = originalTransactionId(index)
        let firstPurchase = now.addingTimeInterval(-Double(payments) * period + 86_400 * Double(1 + index % 20))
        return (0..<payments).map { payment in
            let purchased = firstPurchase.addingTimeInterval(Double(payment) * period)
            let discounted = kind == 4 || kind == 5
            return JWSTransactionDecodedPayload(
                originalTransactionId: otid, transactionId: payment == 0 ? otid : String(Int(otid)! + 100_000_000 * payment),
                webOrderLineItemId: "\(otid)\(payment)", bundleId: bundleId,
                productId: annual ? "com.lumen.pro.annual" : "com.lumen.pro.monthly", subscriptionGroupIdentifier: "21482345",
                purchaseDate: purchased, originalPurchaseDate: firstPurchase, expiresDate: purchased.addingTimeInterval(period),
                quantity: 1, type: .autoRenewable, inAppOwnershipType: .purchased, signedDate: purchased,
                offerType: discounted ? .promotionalOffer : nil, environment: .sandbox, storefront: "USA", storefrontId: "143441",
                transactionReason: payment == 0 ? .purchase : .renewal, currency: "USD",
                price: annual ? (discounted ? 35_990 : 59_990) : 7_990, offerDiscountType: discounted ? .payUpFront : nil)
        }
    }

    /// Auto-renew on, renewing into the same product when `last` expires.
    static func renewalInfo(after last: JWSTransactionDecodedPayload, now: Date) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            originalTransactionId: last.originalTransactionId, autoRenewProductId: last.productId, productId: last.productId,
            autoRenewStatus: .on, isInBillingRetryPeriod: false, signedDate: now, environment: .sandbox,
            recentSubscriptionStartDate: last.originalPurchaseDate, renewalDate: last.expiresDate, currency: "USD",
            renewalPrice: last.productId == "com.lumen.pro.annual" ? 59_990 : 7_990)
    }
}
