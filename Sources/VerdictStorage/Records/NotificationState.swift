/// What one notification says about its purchase, recorded in one step by
/// ``TransactionStore/recordNotificationState(_:)``.
public struct NotificationState: Sendable, Equatable {
    /// The verified transaction, stored only if newer (`signedDate`) than the stored one.
    public var transaction: TransactionRecord?
    /// The verified renewal info, stored only if newer than the stored one.
    public var renewalInfo: RenewalInfoRecord?
    /// The customer's identifiers, filled in where the stored customer lacks them.
    public var customer: CustomerLink?

    public init(transaction: TransactionRecord? = nil, renewalInfo: RenewalInfoRecord? = nil, customer: CustomerLink? = nil) {
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.customer = customer
    }
}

/// The outcome of ``TransactionStore/recordNotificationState(_:)``.
public struct NotificationStateOutcome: Sendable, Equatable {
    /// Whether the transaction became the stored version (nil: the state had none).
    public var transactionRecorded: Bool?
    /// Whether the renewal info became the stored version (nil: the state had none).
    public var renewalInfoRecorded: Bool?
    /// The linked customer's Get Transaction History `revision` (nil: no customer in the state,
    /// or the customer's history was never synced).
    public var historyRevision: String?

    public init(transactionRecorded: Bool? = nil, renewalInfoRecorded: Bool? = nil, historyRevision: String? = nil) {
        self.transactionRecorded = transactionRecorded
        self.renewalInfoRecorded = renewalInfoRecorded
        self.historyRevision = historyRevision
    }
}
