/// The app metadata and signed transaction information of a notification (`data`; Python's `Data`).
public struct NotificationData: Codable, Hashable, Sendable {
    public var environment: AppStoreEnvironment?
    /// The app's Apple ID (App Store Connect "Apple ID"); absent in the sandbox.
    public var appAppleId: Int64?
    public var bundleId: String?
    /// The app's build version (`CFBundleVersion`).
    public var bundleVersion: String?
    /// JWS whose payload is a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?
    /// JWS whose payload is a ``JWSRenewalInfoDecodedPayload`` (subscriptions only).
    public var signedRenewalInfo: String?
    /// The subscription status as of the notification's `signedDate`.
    public var status: SubscriptionStatus?
    /// The customer's refund reason, on `CONSUMPTION_REQUEST` notifications.
    public var consumptionRequestReason: ConsumptionRequestReason?

    public init(
        environment: AppStoreEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        status: SubscriptionStatus? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}
