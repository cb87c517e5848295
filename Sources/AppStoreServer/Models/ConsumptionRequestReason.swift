/// The customer's reason for a refund request (`data.consumptionRequestReason`).
public struct ConsumptionRequestReason: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unintendedPurchase = Self(rawValue: "UNINTENDED_PURCHASE")
    public static let fulfillmentIssue = Self(rawValue: "FULFILLMENT_ISSUE")
    public static let unsatisfiedWithPurchase = Self(rawValue: "UNSATISFIED_WITH_PURCHASE")
    public static let legal = Self(rawValue: "LEGAL")
    public static let other = Self(rawValue: "OTHER")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.unintendedPurchase, .fulfillmentIssue, .unsatisfiedWithPurchase, .legal, .other]
}
