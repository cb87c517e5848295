import Foundation
import VerdictStorage

/// One app's daily rollups for a period (``ConsolePeriod``), read once: a few rows per day. The
/// Overview draws them; its headline numbers (``Headline``) are also a row of the All apps page.
struct ConsolePeriodStatistics {
    /// The period's counts, as the Overview's cards show them.
    struct Headline {
        var notifications: Int
        var decisions: Int
        var offers: Int
        var heldOut: Int
        var requests: Int
        var missed: Int
    }

    var offers: [OfferRuleDay]
    var refunds: [RefundRuleDay]
    var notifications: [NotificationDay]

    /// The rollups of `period` in `repository` (an app's: it reads only that app's rows).
    static func read(_ repository: any DailyStatisticsStore, _ period: ConsolePeriod) async throws -> ConsolePeriodStatistics {
        ConsolePeriodStatistics(
            offers: try await repository.offerRuleDays(period.range), refunds: try await repository.refundRuleDays(period.range),
            notifications: try await repository.notificationDays(period.range))
    }

    /// The sum of `value` over `rows`.
    static func total<Row>(_ rows: [Row], _ value: (Row) -> Int) -> Int { rows.reduce(0) { $0 + value($1) } }

    var headline: Headline {
        Headline(
            notifications: Self.total(notifications, \.notifications), decisions: Self.total(offers, \.statistics.decisions),
            offers: Self.total(offers, \.statistics.offersMade), heldOut: Self.total(offers, \.statistics.heldOut),
            requests: Self.total(refunds, \.statistics.requests), missed: Self.total(refunds, \.statistics.missed))
    }
}
