/// The latest transactions of one subscription group (Get All Subscription Statuses).
public struct SubscriptionGroupIdentifierItem: Codable, Hashable, Sendable {
    public var subscriptionGroupIdentifier: String?
    /// One entry per original transaction (subscription) in the group.
    public var lastTransactions: [LastTransactionsItem]?

    public init(subscriptionGroupIdentifier: String? = nil, lastTransactions: [LastTransactionsItem]? = nil) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}
