import AppStoreServer

extension FactDocument {
    /// `usage`: what the app reported about the purchase a refund request is about, and whether
    /// Verdict may share it. Nil values are left out of the facts.
    public struct Usage: Sendable, Hashable {
        public var deliveryStatus: DeliveryStatus?
        /// Apple's milliunits (0–100000), as the app reports it; the fact is whole percent (0–100).
        public var consumptionPercentage: Int64?
        public var sampleContentProvided: Bool?
        public var sessionsSincePurchase: Int64?
        /// Whether Verdict may share consumption data (recorded or assumed consent).
        public var consented: Bool

        public init(deliveryStatus: DeliveryStatus? = nil, consumptionPercentage: Int64? = nil,
                    sampleContentProvided: Bool? = nil, sessionsSincePurchase: Int64? = nil, consented: Bool) {
            self.deliveryStatus = deliveryStatus
            self.consumptionPercentage = consumptionPercentage
            self.sampleContentProvided = sampleContentProvided
            self.sessionsSincePurchase = sessionsSincePurchase
            self.consented = consented
        }
    }
}

extension FactDocument.Usage: FactRecord {
    public static let recordName = "Usage"
    public static let fields: [FactField<Self>] = [
        .enumeration("deliveryStatus", \.deliveryStatus,
                     "Whether the app delivered the purchase (DELIVERED, UNDELIVERED_…).").optional,
        .int("consumptionPercentage", { $0.consumptionPercentage.map { $0 / 1000 } },
             "Percent of the purchase consumed, 0–100 (Apple receives it ×1000, in milliunits).").optional,
        .bool("sampleContentProvided", \.sampleContentProvided,
              "Whether the app offered a free sample or trial before purchase.").optional,
        .bool("consented", \.consented, "Whether the customer consented to sharing consumption data.").optional,
        .int("sessionsSincePurchase", \.sessionsSincePurchase, "App sessions since the purchase.").optional,
    ]
}
