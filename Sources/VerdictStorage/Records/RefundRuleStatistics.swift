/// How one refund rule (or veto, or the default answer) has done: the consumption requests it
/// decided, what Verdict sent, and what Apple decided afterwards.
public struct RefundRuleStatistics: Sendable, Equatable {
    /// The rule id, the veto id that blocked, or `default` when no rule matched.
    public var ruleId: String
    public var requests: Int
    /// Accepted by Apple (202).
    public var sent: Int
    /// Not sent because the customer had not consented (or withdrew consent).
    public var notSentNoConsent: Int
    /// Not sent for another reason (vetoed, no refunds rules).
    public var notSentOther: Int
    /// Refused by Apple with a permanent error.
    public var failed: Int
    /// The 12-hour deadline passed before Apple accepted an answer.
    public var missed: Int
    /// Apple refunded (`REFUND`, including refunds later reversed; a seat refund is not one).
    public var granted: Int
    /// Apple declined (`REFUND_DECLINED`).
    public var declined: Int
    /// Apple reversed a refund (`REFUND_REVERSED`).
    public var reversed: Int
    /// Apple's latest answer refunded some seats of a multiseat purchase (`REFUND` with subtype
    /// `SEATS`, recorded as `REFUND_SEATS`): not a full refund, not counted in ``granted``.
    public var seatsRefunded: Int

    public init(ruleId: String, requests: Int, sent: Int, notSentNoConsent: Int, notSentOther: Int, failed: Int, missed: Int,
                granted: Int, declined: Int, reversed: Int, seatsRefunded: Int = 0) {
        self.seatsRefunded = seatsRefunded
        self.ruleId = ruleId
        self.requests = requests
        self.sent = sent
        self.notSentNoConsent = notSentNoConsent
        self.notSentOther = notSentOther
        self.failed = failed
        self.missed = missed
        self.granted = granted
        self.declined = declined
        self.reversed = reversed
    }
}
