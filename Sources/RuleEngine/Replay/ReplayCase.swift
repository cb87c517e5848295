/// One stored decision to replay: what the service decided then (the recorded ``Decision`` and
/// its explanation), on which facts, and what Apple or the customer did afterwards.
public struct ReplayCase: Sendable {
    /// The stored decision's id (an offer decision or a consumption request).
    public var id: String
    /// Which section decided it.
    public var section: Decision.Section
    /// The subscription the decision was for.
    public var originalTransactionId: String
    /// The purchase a refund request was about (refunds only).
    public var transactionId: String?
    /// When the service decided (UNIX milliseconds): replays run in this order, and caps count
    /// grants in the windows ending here.
    public var decidedAt: Int64
    /// The facts the decision saw, untyped (each bundle types them with its own schema).
    public var facts: FactData
    /// The decision as recorded.
    public var recorded: Decision
    /// The recorded explanation text, when the record kept one.
    public var recordedExplanation: String?
    /// Refunds: whether the customer's consent allowed sending consumption data then (a candidate
    /// cannot change that). Always true for offers.
    public var mayShare: Bool
    /// What happened afterwards: `redeemed` or `retained` for offers; Apple's `REFUND`,
    /// `REFUND_DECLINED` or `REFUND_REVERSED` for refunds; nil while unknown.
    public var outcome: String?

    public init(id: String, section: Decision.Section, originalTransactionId: String, transactionId: String? = nil,
                decidedAt: Int64, facts: FactData, recorded: Decision, recordedExplanation: String? = nil,
                mayShare: Bool = true, outcome: String? = nil) {
        self.id = id
        self.section = section
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.decidedAt = decidedAt
        self.facts = facts
        self.recorded = recorded
        self.recordedExplanation = recordedExplanation
        self.mayShare = mayShare
        self.outcome = outcome
    }
}
