import Foundation

/// `alternateProduct`: a switch-plan message suggesting `productId`, a product of the same
/// subscription group. Its message must carry no image.
public struct AlternateProduct: Codable, Hashable, Sendable {
    public var messageIdentifier: UUID
    public var productId: String
    /// How the suggested plan is billed (`MONTHLY`: monthly payments with a 12-month commitment).
    public var billingPlanType: BillingPlanType?

    public init(messageIdentifier: UUID, productId: String, billingPlanType: BillingPlanType? = nil) {
        self.messageIdentifier = messageIdentifier
        self.productId = productId
        self.billingPlanType = billingPlanType
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RetentionCodingKeys.self)
        messageIdentifier = try container.decodeUUID(.messageIdentifier)
        productId = try container.decode(String.self, forKey: .productId)
        billingPlanType = try container.decodeIfPresent(BillingPlanType.self, forKey: .billingPlanType)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RetentionCodingKeys.self)
        try container.encode(messageIdentifier.uuidString.lowercased(), forKey: .messageIdentifier)
        try container.encode(productId, forKey: .productId)
        try container.encodeIfPresent(billingPlanType, forKey: .billingPlanType)
    }
}
