/// One UTC day of one offer rule's decisions in one currency (a row of the daily rollup).
public struct OfferRuleDay: Sendable, Equatable {
    /// Net revenue of one arm: its sum, and the sum of each decision's revenue squared (for the
    /// variance), in milliunits of the row's currency.
    public struct Revenue: Sendable, Equatable {
        public var total: Int64
        public var squares: Double

        public init(total: Int64 = 0, squares: Double = 0) {
            self.total = total
            self.squares = squares
        }
    }

    /// The UTC day (see ``DayRange``).
    public var day: Int64
    /// The subscription's currency when decided; nil: unknown.
    public var currency: String?
    /// The counts; `ruleId` is empty for decisions no rule made.
    public var statistics: OfferRuleStatistics
    /// Net revenue of the offers made (treatment, `statistics.offersMade` decisions).
    public var treatmentRevenue: Revenue
    /// Net revenue of the held-out customers (`statistics.heldOut` decisions).
    public var holdoutRevenue: Revenue

    public init(day: Int64, currency: String?, statistics: OfferRuleStatistics,
                treatmentRevenue: Revenue = Revenue(), holdoutRevenue: Revenue = Revenue()) {
        self.day = day
        self.currency = currency
        self.statistics = statistics
        self.treatmentRevenue = treatmentRevenue
        self.holdoutRevenue = holdoutRevenue
    }
}
