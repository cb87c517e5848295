import Foundation

/// The response of Extend a Subscription Renewal Date.
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    /// Whether the extension succeeded.
    public var success: Bool?
    /// The new renewal date.
    public var effectiveDate: Date?

    public init(
        originalTransactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        success: Bool? = nil,
        effectiveDate: Date? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}
