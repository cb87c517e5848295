/// Decisions, refund requests and notifications summed per UTC day, kept exact in the writing
/// transaction (see migration 12), so a period's statistics read a few rows per day however many
/// decisions are stored. Part of ``VerdictRepository``.
///
/// Kept per app since migration 19: every method sums only the rows of the repository's app
/// (``VerdictRepository/app``).
public protocol DailyStatisticsStore: Sendable {
    /// The offer decisions of `days`, per day, rule and currency, oldest day first.
    func offerRuleDays(_ days: DayRange) async throws -> [OfferRuleDay]
    /// The consumption requests of `days`, per day and deciding rule, oldest day first.
    func refundRuleDays(_ days: DayRange) async throws -> [RefundRuleDay]
    /// The notifications received in `days`, per day, type and subtype, oldest day first.
    func notificationDays(_ days: DayRange) async throws -> [NotificationDay]
}
