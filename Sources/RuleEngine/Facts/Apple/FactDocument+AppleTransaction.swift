import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The records of one verified Apple transaction (`JWSTransactionDecodedPayload`). Enumeration
// values newer than this code are left out (``FactEnumeration/known``).

extension FactDocument.Offer {
    /// The offer a transaction was bought with: its identifier only together with an offer type.
    init(_ transaction: JWSTransactionDecodedPayload) {
        self.init(type: transaction.offerType?.known,
                  identifier: transaction.offerType == nil ? nil : transaction.offerIdentifier,
                  discountType: transaction.offerDiscountType?.known)
    }
}

extension FactDocument.Transaction {
    /// `transaction` as one of `customer.transactions`.
    init(_ transaction: JWSTransactionDecodedPayload) {
        self.init(
            productId: transaction.productId, price: FactDocument.Amount(transaction.price, transaction.currency),
            currency: transaction.currency, offer: FactDocument.Offer(transaction), purchaseDate: transaction.purchaseDate,
            revocationDate: transaction.revocationDate,
            revocationType: transaction.revocationDate == nil ? nil : transaction.factRevocationType)
    }
}

extension FactDocument.Refund {
    /// A refunded transaction as a refund (family-sharing revocations are not refunds).
    init?(_ transaction: JWSTransactionDecodedPayload) {
        guard let date = transaction.revocationDate, let type = transaction.factRevocationType,
              type == .refundFull || type == .refundProrated
        else { return nil }
        self.init(productId: transaction.productId, price: FactDocument.Amount(transaction.price, transaction.currency),
                  date: date, revocationType: type)
    }
}

extension FactDocument.OfferRedemption {
    /// A transaction bought with a documented offer type, as a redemption.
    init?(_ transaction: JWSTransactionDecodedPayload) {
        guard let offerType = transaction.offerType?.known else { return nil }
        self.init(productId: transaction.productId, offerType: offerType, offerIdentifier: transaction.offerIdentifier,
                  offerDiscountType: transaction.offerDiscountType?.known, date: transaction.purchaseDate)
    }
}

extension JWSTransactionDecodedPayload {
    /// Apple's `revocationType` when documented; for older payloads without one, a full refund (or
    /// a family revocation for a family-shared purchase) when the transaction was revoked.
    var factRevocationType: RevocationType? {
        if let type = revocationType { return type.known }
        guard revocationDate != nil else { return nil }
        return inAppOwnershipType == .familyShared ? .familyRevoke : .refundFull
    }

    /// A period is paid unless it was free (a free trial, or a price of zero) or refunded.
    var isPaidPeriod: Bool {
        if offerDiscountType == .freeTrial { return false }
        if let price, price <= 0 { return false }
        return revocationDate == nil
    }
}
