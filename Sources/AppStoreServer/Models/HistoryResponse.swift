/// A page of Get Transaction History.
public struct HistoryResponse: Codable, Hashable, Sendable {
    /// The token to request the next page with (send the same query parameters).
    public var revision: String?
    /// Whether more pages follow.
    public var hasMore: Bool?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var environment: AppStoreEnvironment?
    /// Up to 20 JWS transactions (``JWSTransactionDecodedPayload``).
    public var signedTransactions: [String]?

    public init(
        revision: String? = nil,
        hasMore: Bool? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment? = nil,
        signedTransactions: [String]? = nil
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}
