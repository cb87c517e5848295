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
            revocationDate: transaction.revocationDate, revocationType: transaction.factRevocationType,
            seats: transaction.factSeats, amount: FactDocument.Amount(transaction.chargedAmount, transaction.currency),
            ownership: transaction.factOwnership)
    }
}

extension FactDocument.Refund {
    /// A refunded transaction as a refund: a full or prorated refund, or a seat refund (some seats
    /// of a multiseat purchase). Family-sharing revocations, a purchaser taking a member's
    /// subscription away, and anything on a member's copy (`ASSIGNED`) of the purchaser's
    /// transaction are not refunds to this customer.
    init?(_ transaction: JWSTransactionDecodedPayload) {
        guard let type = transaction.customerRefundType else { return nil }
        let price = FactDocument.Amount(transaction.price, transaction.currency)
        if type == .refundSeats {
            // Apple dates no seat refund: when it signed the transaction showing the revoked seats.
            guard let date = transaction.signedDate ?? transaction.purchaseDate else { return nil }
            self.init(productId: transaction.productId, price: price, date: date, revocationType: type,
                      seats: transaction.resolvedRevokedSeatQuantity.map(Int64.init))
            return
        }
        guard let date = transaction.revocationDate else { return nil }
        let revoked = transaction.resolvedRevokedSeatQuantity.flatMap { $0 > 0 ? Int64($0) : nil }
        self.init(productId: transaction.productId, price: price, date: date, revocationType: type,
                  seats: revoked ?? transaction.seatCount.map(Int64.init))
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
    /// How the transaction was revoked, nil when it was not: ``FactRevocationType/refundSeats`` for
    /// a seat refund (``isSeatRefund``); else, once revoked, Apple's `revocationType` when
    /// documented, and for older payloads without one a full refund (a family revocation for a
    /// family-shared purchase, an assignment revocation for a member's copy).
    var factRevocationType: FactRevocationType? {
        if isSeatRefund { return .refundSeats }
        guard revocationDate != nil else { return nil }
        if let type = revocationType { return type.known.map(FactRevocationType.init) }
        switch inAppOwnershipType {
        case .familyShared?: return .familyRevoke
        case .assigned?: return .assignmentRevoke
        default: return .refundFull
        }
    }

    /// A seat refund: a refund took back some of the seats of the purchaser's multiseat
    /// transaction (`revokedSeatQuantity`), which stays valid for the rest (no `revocationDate`).
    var isSeatRefund: Bool {
        guard revocationDate == nil, inAppOwnershipType != .assigned, let revoked = resolvedRevokedSeatQuantity else {
            return false
        }
        return revoked > 0
    }

    /// The seats the transaction still covers: its seats less those a seat refund took back, 0
    /// once it is revoked; nil when a multiseat purchase's seats are unknown.
    var factSeats: Int64? {
        guard let seats = seatCount else { return nil }
        guard revocationDate == nil else { return 0 }
        return max(0, Int64(seats) - Int64(max(0, resolvedRevokedSeatQuantity ?? 0)))
    }

    /// Who holds the transaction; `PURCHASED` when Apple gives none, nil for a value newer than
    /// this code.
    var factOwnership: InAppOwnershipType? {
        guard let type = inAppOwnershipType else { return .purchased }
        return type.known
    }

    /// The billing plan; `BILLED_UPFRONT` when Apple gives none, nil for a value newer than this code.
    var factBillingPlan: BillingPlanType? {
        guard let type = billingPlanType else { return .billedUpfront }
        return type.known
    }

    /// How Apple refunded this customer for the transaction: a full, prorated or seat refund; nil
    /// for a transaction not refunded, a family-sharing or assignment revocation, and a member's
    /// copy (`ASSIGNED`) of the purchaser's transaction, whose refunds are the purchaser's.
    var customerRefundType: FactRevocationType? {
        guard inAppOwnershipType != .assigned, let type = factRevocationType, type.isRefund else { return nil }
        return type
    }

    /// A period is paid unless it was free (a free trial, or a price of zero) or refunded.
    var isPaidPeriod: Bool {
        if offerDiscountType == .freeTrial { return false }
        if let price, price <= 0 { return false }
        return revocationDate == nil
    }
}
