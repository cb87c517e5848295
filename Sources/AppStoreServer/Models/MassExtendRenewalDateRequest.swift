/// The body of Extend Subscription Renewal Dates for All Active Subscribers.
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// Days to extend by (at most 90).
    public var extendByDays: Int32?
    public var extendReasonCode: ExtendReasonCode?
    /// A developer-chosen UUID string identifying the request.
    public var requestIdentifier: String?
    /// ISO 3166-1 alpha-3 storefronts to limit the extension to (all when absent).
    public var storefrontCountryCodes: [String]?
    public var productId: String?

    public init(
        extendByDays: Int32? = nil,
        extendReasonCode: ExtendReasonCode? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        productId: String? = nil
    ) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }
}
