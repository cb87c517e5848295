/// Identifiers that belong to one customer (one subscription chain). Nil fields are unknown.
public struct CustomerLink: Sendable, Equatable {
    public var originalTransactionId: String
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var environment: String?
    public var seenAt: Int64

    public init(originalTransactionId: String, appAccountToken: String? = nil, appTransactionId: String? = nil,
                environment: String? = nil, seenAt: Int64) {
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.environment = environment
        self.seenAt = seenAt
    }
}

/// A stored customer: originalTransactionId ↔ appAccountToken ↔ appTransactionId.
public struct CustomerRecord: Sendable, Equatable {
    public var originalTransactionId: String
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var environment: String?
    public var firstSeenAt: Int64
    /// The Get Transaction History `revision` reached by the last sync, if any.
    public var historyRevision: String?
    public var historySyncedAt: Int64?

    public init(originalTransactionId: String, appAccountToken: String?, appTransactionId: String?,
                environment: String?, firstSeenAt: Int64, historyRevision: String?, historySyncedAt: Int64?) {
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.environment = environment
        self.firstSeenAt = firstSeenAt
        self.historyRevision = historyRevision
        self.historySyncedAt = historySyncedAt
    }
}
