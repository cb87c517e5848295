/// The external purchase token of an `EXTERNAL_PURCHASE_TOKEN` notification.
///
/// It carries no environment: a token whose `externalPurchaseId` starts with `SANDBOX` is a
/// sandbox token (see ``ResponseBodyV2DecodedPayload/appIdentity``).
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    public var externalPurchaseId: String?
    /// When the token was created, as integer milliseconds since 1970 (kept raw, not a `Date`).
    public var tokenCreationDate: Int64?
    public var appAppleId: Int64?
    public var bundleId: String?

    public init(
        externalPurchaseId: String? = nil,
        tokenCreationDate: Int64? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }
}
