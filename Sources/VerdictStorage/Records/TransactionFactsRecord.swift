/// What the app reports about one purchase for refund decisions (`PUT /v1/transactions/{id}/facts`):
/// Apple's consumption fields, already checked against Apple's enums and ranges, and the app's
/// own usage count. Absent values are unknown to Verdict.
public struct TransactionFactsRecord: Sendable, Equatable {
    public var transactionId: String
    /// A `DeliveryStatus` raw value (`DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, …).
    public var deliveryStatus: String?
    /// Share of the purchase consumed, in Apple's milliunits (0–100000).
    public var consumptionPercentage: Int64?
    /// Whether a free sample, trial or information was provided before purchase.
    public var sampleContentProvided: Bool?
    /// App sessions since the purchase.
    public var sessionsSincePurchase: Int64?
    /// When the app last reported (UNIX ms).
    public var updatedAt: Int64
    /// Set when the app said these facts are final (nothing more to report): a refund decision
    /// waiting for facts goes ahead then.
    public var finalAt: Int64?

    public init(transactionId: String, deliveryStatus: String?, consumptionPercentage: Int64?, sampleContentProvided: Bool?,
                sessionsSincePurchase: Int64?, updatedAt: Int64, finalAt: Int64? = nil) {
        self.finalAt = finalAt
        self.transactionId = transactionId
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.sampleContentProvided = sampleContentProvided
        self.sessionsSincePurchase = sessionsSincePurchase
        self.updatedAt = updatedAt
    }
}
