/// One UTC day of the consumption requests one rule (or veto, or the default answer) decided.
public struct RefundRuleDay: Sendable, Equatable {
    /// The UTC day (see ``DayRange``).
    public var day: Int64
    public var statistics: RefundRuleStatistics

    public init(day: Int64, statistics: RefundRuleStatistics) {
        self.day = day
        self.statistics = statistics
    }
}
