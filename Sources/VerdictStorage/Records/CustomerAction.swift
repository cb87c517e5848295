/// What a later notification showed a customer did after an offer decision, in Verdict's words.
/// The first one seen inside the decision's attribution window is kept; a stay replaces an action
/// that is not one (``cancelled`` and the seat losses: the customer came back or stayed after all).
public enum CustomerAction: String, Sendable, CaseIterable, Codable {
    /// Redeemed the offer the decision made (its `offerIdentifier` shows on the transaction or
    /// renewal info). The decision's outcome is `redeemed`.
    case redeemed
    /// Took a retention offer Apple chose on the cancel page (`offerType` 5).
    case appleOffer = "apple_offer"
    /// Redeemed some other offer (`OFFER_REDEEMED` with another offer, not Apple's retention offer).
    case otherOffer = "other_offer"
    /// Switched plan (`DID_CHANGE_RENEWAL_PREF`, upgrade or downgrade).
    case switched
    /// The subscription renewed (`DID_RENEW`): auto-renew was kept.
    case renewed
    /// Turned auto-renew back on (`DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_ENABLED`).
    case reenabled
    /// Subscribed again after expiring (`SUBSCRIBED` / `RESUBSCRIBE`).
    case resubscribed
    /// Added seats to a multiseat subscription (subtype `INCREASE_QUANTITY`, whatever notification
    /// type carries it): a stay.
    case addedSeats = "added_seats"
    /// Turned auto-renew off after a decision on the cancel page (`AUTO_RENEW_DISABLED` after a
    /// realtime decision). The decision's outcome stays open: a later stay replaces it.
    case cancelled
    /// Apple refunded some seats of the group purchaser's multiseat transaction (`REFUND` with
    /// subtype `SEATS`); the transaction stays valid for the others. Not a stay and not a full
    /// refund: the outcome stays open.
    case seatsRefunded = "seats_refunded"
    /// Seats the developer had invited members to were unclaimed (`UNCLAIM_SEATS`). Not a stay:
    /// the outcome stays open.
    case seatsUnclaimed = "seats_unclaimed"
    /// The group purchaser took the subscription away from a member (a transaction with
    /// `revocationType` `ASSIGNMENT_REVOKE`). Not a refund and not a stay: the outcome stays open.
    case assignmentRevoked = "assignment_revoked"

    /// Whether the customer stayed: a stay closes the decision (`retained` or `redeemed`); the
    /// others are recorded on open decisions and leave their outcome open.
    public var stayed: Bool {
        switch self {
        case .cancelled, .seatsRefunded, .seatsUnclaimed, .assignmentRevoked: false
        case .redeemed, .appleOffer, .otherOffer, .switched, .renewed, .reenabled, .resubscribed, .addedSeats: true
        }
    }
}

/// A notification's evidence of what a customer did, for ``OfferDecisionStore/recordCustomerAction(_:attributionWindow:at:)``.
public struct CustomerActionEvent: Sendable, Equatable {
    public var originalTransactionId: String
    /// What the customer did. For a stay, decisions whose offer is among ``offerIdentifiers``
    /// record ``CustomerAction/redeemed`` instead.
    public var action: CustomerAction
    /// The offers on the notification's transaction and renewal info.
    public var offerIdentifiers: [String]
    /// Apple's `offerType` on the notification (raw: values Verdict does not know are kept).
    public var offerType: Int32?
    /// The notification that showed it.
    public var notificationUUID: String
    /// When the customer acted (the notification's `signedDate`), UNIX milliseconds.
    public var actedAt: Int64

    public init(originalTransactionId: String, action: CustomerAction, offerIdentifiers: [String] = [], offerType: Int32? = nil,
                notificationUUID: String, actedAt: Int64) {
        self.originalTransactionId = originalTransactionId
        self.action = action
        self.offerIdentifiers = offerIdentifiers
        self.offerType = offerType
        self.notificationUUID = notificationUUID
        self.actedAt = actedAt
    }
}
