import Foundation
import RuleEngine
import VerdictStorage

/// The Overview page for a period of whole UTC days (``ConsolePeriod``): the active bundle (and a
/// refused one), the period's headline counts, decisions, offers and refund requests by day,
/// notifications by type, each offer rule's treatment against holdout on save rate and on net
/// revenue per decided customer (``ConsoleOverviewRules``), and each refund rule's answers and
/// Apple's outcomes. Everything is read from the daily rollups: a few rows per day.
struct ConsoleOverviewView {
    struct Bundle {
        var hash: String
        var loadedAt: String
        var rejected: String?
    }

    struct NotificationRow {
        var type: String
        var subtype: String
        var count: Int
    }

    struct DayRow {
        var day: String
        var decisions: Int
        var offers: Int
        var heldOut: Int
        var requests: Int
        var notifications: Int
    }

    /// Where the period form is sent (the form is shared with the All apps page).
    let periodAction = "/console/overview"
    var since: String
    var until: String
    /// The app the period form keeps (nil: the session sees one app).
    var app: String?
    var presets: [ConsolePeriod.Preset]
    var bundle: Bundle?
    /// The Rules page, which the bundle's notes link to.
    var rulesHref: String
    var headline: ConsolePeriodStatistics.Headline
    /// The queue's dead jobs: the one queue serves every app, so shown on an app's Overview only
    /// when it is the only app (nil otherwise; All apps shows them to a session of every app).
    var deadJobs: Int?
    var holdoutPercent: String
    var decisionsChart: String
    var activityChart: String
    var days: [DayRow]
    var notificationTypes: [NotificationRow]
    var rules: [ConsoleOverviewRules.SaveRateRow]
    var revenues: [ConsoleOverviewRules.RevenueRow]
    var refunds: [RefundRuleStatistics]

    init(period: ConsolePeriod, today: Int64, reloader: RulesReloader, data: ConsolePeriodStatistics, deadJobs: Int?,
         links: ConsoleLinks) {
        since = period.since
        until = period.until
        app = links.app
        presets = period.presets(today: today, links: links)
        let active = reloader.store.current
        bundle = active.map {
            Bundle(hash: $0.hash, loadedAt: reloader.loadedAt.map(ConsoleFormat.instant) ?? "at start",
                   rejected: reloader.lastRejected.map { ConsoleFormat.instant($0.at) })
        }
        rulesHref = links.page("/console/rules")
        let share = active?.offers?.holdout.map { Double($0.basisPoints) / 10_000 }
        holdoutPercent = share.map { String(format: "%g %% holdout", $0 * 100) } ?? "holdout (none configured)"

        func total<Row>(_ rows: [Row], _ value: (Row) -> Int) -> Int { ConsolePeriodStatistics.total(rows, value) }
        headline = data.headline
        self.deadJobs = deadJobs

        let offersByDay = Dictionary(grouping: data.offers, by: \.day)
        let refundsByDay = Dictionary(grouping: data.refunds, by: \.day)
        let notificationsByDay = Dictionary(grouping: data.notifications, by: \.day)
        days = zip(period.first...period.last, period.dayLabels).map { day, label in
            let offers = offersByDay[day] ?? []
            return DayRow(
                day: label, decisions: total(offers, \.statistics.decisions), offers: total(offers, \.statistics.offersMade),
                heldOut: total(offers, \.statistics.heldOut), requests: total(refundsByDay[day] ?? [], \.statistics.requests),
                notifications: total(notificationsByDay[day] ?? [], \.notifications))
        }
        decisionsChart = DayBarChart(
            id: "decisions-by-day", title: "Offer decisions, offers made and customers held out per day",
            series: [.init(name: "decisions", style: "decisions"), .init(name: "offers made", style: "offers"),
                     .init(name: "held out", style: "held-out")],
            days: days.map { .init(label: $0.day, values: [$0.decisions, $0.offers, $0.heldOut]) }).svg()
        activityChart = DayBarChart(
            id: "activity-by-day", title: "Notifications received and refund requests per day",
            series: [.init(name: "notifications", style: "notifications"), .init(name: "refund requests", style: "requests")],
            days: days.map { .init(label: $0.day, values: [$0.notifications, $0.requests]) }).svg()

        let types = Dictionary(grouping: data.notifications) { "\($0.notificationType)\u{0}\($0.subtype ?? "")" }
        notificationTypes = types.values.compactMap { rows in
            rows.first.map { NotificationRow(type: $0.notificationType, subtype: $0.subtype ?? "—", count: total(rows, \.notifications)) }
        }.sorted { ($1.count, $0.type, $0.subtype) < ($0.count, $1.type, $1.subtype) }

        rules = ConsoleOverviewRules.saveRates(data.offers, expectedHoldoutShare: share).map { row in
            var row = row
            row.href = links.page("/console/decisions", [("rule", row.rule), ("since", period.since), ("until", period.until)])
            return row
        }
        revenues = ConsoleOverviewRules.revenues(data.offers)
        let refundsByRule = Dictionary(grouping: data.refunds.map(\.statistics), by: \.ruleId)
        refunds = refundsByRule.keys.sorted().map { rule in
            let rows = refundsByRule[rule] ?? []
            return RefundRuleStatistics(
                ruleId: rule, requests: total(rows, \.requests), sent: total(rows, \.sent),
                notSentNoConsent: total(rows, \.notSentNoConsent), notSentOther: total(rows, \.notSentOther),
                failed: total(rows, \.failed), missed: total(rows, \.missed), granted: total(rows, \.granted),
                declined: total(rows, \.declined), reversed: total(rows, \.reversed))
        }
    }
}
