import Foundation
import VerdictStorage

/// A decision record as the API shows it.
struct DecisionView: Encodable {
    struct Offer: Encodable {
        var id: String
        var type: String
    }

    var id: String
    var originalTransactionId: String
    var notificationUUID: String?
    var trigger: String
    var bundleHash: String
    var ruleId: String?
    var ruleLine: Int?
    /// The offer made, or (held out) the one it would have been.
    var offer: Offer?
    var productId: String?
    var heldOut: Bool
    var decidedAt: Int64
    var expiresAt: Int64?
    /// `redeemed` or `retained` once a later notification showed the customer stayed.
    var outcome: String?
    var outcomeAt: Int64?
    /// What the customer did (``CustomerAction``), and Apple's `offerType` with it.
    var action: CustomerAction?
    var actionOfferType: Int32?
    /// True for a cancel-page decision whose answer reached Apple after its deadline (absent otherwise).
    var answeredLate: Bool?
    /// The engine's decision, its text explanation and the facts it saw.
    var record: JSONFragment

    init(_ record: OfferDecisionRecord) {
        id = record.id
        originalTransactionId = record.originalTransactionId
        notificationUUID = record.notificationUUID
        trigger = record.trigger
        bundleHash = record.bundleHash
        ruleId = record.ruleId
        ruleLine = record.ruleLine
        if let offerId = record.offerId { offer = Offer(id: offerId, type: record.offerType ?? "") }
        productId = record.productId
        heldOut = record.heldOut
        decidedAt = record.decidedAt
        expiresAt = record.expiresAt
        outcome = record.outcome
        outcomeAt = record.outcomeAt
        action = record.action
        actionOfferType = record.actionOfferType
        answeredLate = record.answeredLate ? true : nil
        self.record = JSONFragment(text: record.json)
    }
}
