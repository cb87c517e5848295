/// One offer decision as stored: who, why (bundle, rule and line), what (the offer, or none, or
/// held out), until when the offer is pending, and the full record (the engine's decision with
/// its explanation and the facts it saw) as JSON.
public struct OfferDecisionRecord: Sendable, Equatable {
    /// A UUID (lowercase).
    public var id: String
    public var originalTransactionId: String
    /// The notification that triggered it; nil for on-demand decisions.
    public var notificationUUID: String?
    /// `AUTO_RENEW_DISABLED`, `EXPIRED`, the notification type, or `IN_APP`.
    public var trigger: String
    public var bundleHash: String
    public var ruleId: String?
    public var ruleLine: Int?
    /// The offer made (nil: no offer, or held out — see `heldOut`).
    public var offerId: String?
    /// `PROMOTIONAL` or `WIN_BACK`.
    public var offerType: String?
    /// The product the offer is for (the subscription's product).
    public var productId: String?
    /// In the holdout: no offer was made; the record holds the one it would have been.
    public var heldOut: Bool
    public var decidedAt: Int64
    /// When the pending offer lapses (nil without an offer).
    public var expiresAt: Int64?
    /// The decision record (decision, explanation, facts) as JSON.
    public var json: String
    /// Whether the customer stayed: `redeemed` (the offered offer shows on their transaction or
    /// renewal info) or `retained` (they stayed without it); nil while unknown. ``action`` says how.
    public var outcome: String?
    public var outcomeAt: Int64?
    /// The notification that showed the outcome.
    public var outcomeNotificationUUID: String?
    /// The customer `perCustomer` limits count this decision for (the bundle's customer unit;
    /// nil: the originalTransactionId).
    public var customerUnit: String?
    /// The ISO 4217 currency of the subscription when decided (nil: unknown, or decided before
    /// revenue was tracked); ``revenue`` is in it.
    public var currency: String?
    /// The net revenue the customer brought in ``currency`` within the revenue window after the
    /// decision (purchases and renewals, less refunds), in milliunits. Kept by the store from
    /// the notifications that follow; 0 on a new decision.
    public var revenue: Int64
    /// What the customer did afterwards (see ``CustomerAction``); nil while unknown. ``outcomeAt``
    /// and ``outcomeNotificationUUID`` tell when and from which notification.
    public var action: CustomerAction?
    /// Apple's `offerType` on the notification that showed ``action`` (raw, unknown values kept).
    public var actionOfferType: Int32?
    /// A realtime decision whose answer reached Apple after its deadline: the App Store showed its
    /// fallback instead, so the decision counts against no cap and is not pending.
    public var answeredLate: Bool

    public init(id: String, originalTransactionId: String, notificationUUID: String?, trigger: String, bundleHash: String,
                ruleId: String?, ruleLine: Int?, offerId: String?, offerType: String?, productId: String?, heldOut: Bool,
                decidedAt: Int64, expiresAt: Int64?, json: String, outcome: String? = nil, outcomeAt: Int64? = nil,
                outcomeNotificationUUID: String? = nil, customerUnit: String? = nil,
                currency: String? = nil, revenue: Int64 = 0, action: CustomerAction? = nil, actionOfferType: Int32? = nil,
                answeredLate: Bool = false) {
        self.answeredLate = answeredLate
        self.action = action
        self.actionOfferType = actionOfferType
        self.customerUnit = customerUnit
        self.currency = currency
        self.revenue = revenue
        self.id = id
        self.originalTransactionId = originalTransactionId
        self.notificationUUID = notificationUUID
        self.trigger = trigger
        self.bundleHash = bundleHash
        self.ruleId = ruleId
        self.ruleLine = ruleLine
        self.offerId = offerId
        self.offerType = offerType
        self.productId = productId
        self.heldOut = heldOut
        self.decidedAt = decidedAt
        self.expiresAt = expiresAt
        self.json = json
        self.outcome = outcome
        self.outcomeAt = outcomeAt
        self.outcomeNotificationUUID = outcomeNotificationUUID
    }
}
