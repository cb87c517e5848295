/// The result of a mass subscription renewal-date extension (`summary` of a `RENEWAL_EXTENSION`
/// / `SUMMARY` notification).
public struct Summary: Codable, Hashable, Sendable {
    public var environment: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    /// The identifier the developer gave the mass extension request.
    public var requestIdentifier: String?
    /// ISO 3166-1 alpha-3 storefronts the extension applied to.
    public var storefrontCountryCodes: [String]?
    /// Subscriptions successfully extended.
    public var succeededCount: Int64?
    /// Subscriptions that could not be extended.
    public var failedCount: Int64?

    public init(
        environment: AppStoreEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
