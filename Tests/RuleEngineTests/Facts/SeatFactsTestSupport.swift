import AppStoreServer
import Foundation
import RuleEngine

/// Apple's worked example of a multiseat subscription, as the transactions Apple signs: (a) a
/// purchase of 8 seats at tiers 5 × 9.99 and 3 × 7.99 USD (`price` 9.24, the average per seat:
/// 73.92 USD charged), and (b) 13 days later a seat addition of 4 at 2 × 7.99 and 2 × 5.99 (`price`
/// 6.99: 27.96 charged), ending with (a). The period: 12 seats, 101.88 USD.
enum SeatFactsTestSupport {
    static let otid = "7000"
    static let product = "com.example.team.annual"

    static func date(_ day: Int) -> Date { Date(appStoreMilliseconds: 1_767_225_600_000 + Int64(day) * 86_400_000) }

    static func tiers(_ tiers: [(price: Int64, quantity: Int32)]) -> [MultiSeatPriceTier] {
        tiers.map { MultiSeatPriceTier(price: $0.price, quantity: $0.quantity) }
    }

    /// A transaction of the subscription: purchased on `day`, ending on `ends`.
    static func transaction(_ id: String, day: Int, ends: Int, price: Int64, currency: String = "USD") -> JWSTransactionDecodedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = id
        transaction.originalTransactionId = otid
        transaction.productId = product
        transaction.subscriptionGroupIdentifier = "team"
        transaction.type = .autoRenewable
        transaction.purchaseDate = date(day)
        transaction.expiresDate = date(ends)
        transaction.signedDate = date(day)
        transaction.price = price
        transaction.currency = currency
        transaction.storefront = "USA"
        transaction.inAppOwnershipType = .purchased
        return transaction
    }

    /// A multiseat transaction of `seats` seats at `tiers`.
    static func multiseat(_ id: String, day: Int, ends: Int, seats: Int32, price: Int64, tiers: [(Int64, Int32)])
        -> JWSTransactionDecodedPayload {
        var transaction = transaction(id, day: day, ends: ends, price: price)
        transaction.quantity = seats
        transaction.multiSeatInfo = TransactionMultiSeatInfo(
            invitationManagement: .apple, priceTiers: Self.tiers(tiers.map { (price: $0.0, quantity: $0.1) }))
        return transaction
    }

    /// (a): 8 seats, 73,920 milliunits.
    static var purchase: JWSTransactionDecodedPayload {
        var purchase = multiseat("7000", day: 0, ends: 365, seats: 8, price: 9_240, tiers: [(9_990, 5), (7_990, 3)])
        purchase.additionalTransactionReason = .seatAddition
        return purchase
    }

    /// (b): 4 more seats 13 days later, 27,960 milliunits, ending with (a).
    static var seatAddition: JWSTransactionDecodedPayload {
        var addition = multiseat("7001", day: 13, ends: 365, seats: 4, price: 6_990, tiers: [(7_990, 2), (5_990, 2)])
        addition.additionalTransactionReason = .seatAddition
        return addition
    }

    /// A member's copy (ASSIGNED) of a purchaser's transaction: the same seats and tiers, under
    /// the member's own ids.
    static func memberCopy(of transaction: JWSTransactionDecodedPayload, id: String, otid: String) -> JWSTransactionDecodedPayload {
        var copy = transaction
        copy.transactionId = id
        copy.originalTransactionId = otid
        copy.inAppOwnershipType = .assigned
        return copy
    }

    static let event = SubscriptionFacts.Event(
        type: .didChangeRenewalStatus, subtype: .autoRenewDisabled, environment: .production, signedDate: date(20))

    /// The facts of the subscription `otid` over `transactions`.
    static func facts(_ transactions: [JWSTransactionDecodedPayload], renewal: JWSRenewalInfoDecodedPayload? = nil,
                      otid: String = Self.otid) -> SubscriptionFacts {
        SubscriptionFacts(event: event, originalTransactionId: otid, transactions: transactions, renewalInfo: renewal)
    }

    static func usd(_ milliunits: Int64) -> FactDocument.Amount { FactDocument.Amount(milliunits: milliunits, currency: "USD") }
}
