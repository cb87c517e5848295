import Foundation

/// The All apps page, for a session of several apps: over a period (``ConsolePeriod``), each of
/// the session's apps with the Overview's headline numbers and its active bundle, its name linking
/// to its Overview for the same period; and, to a session that sees every app, the dead jobs of
/// the queue they share.
struct ConsoleAppsView {
    struct Row {
        var app: String
        /// The app's Overview for the same period.
        var href: String
        var headline: ConsolePeriodStatistics.Headline
        /// The active bundle's hash, and its first characters as shown; nil when none is loaded.
        var bundle: String?
        var bundleShort: String?

        init(_ app: AppContext, statistics: ConsolePeriodStatistics, period: ConsolePeriod, links: ConsoleLinks) {
            self.app = app.bundleId
            href = links.page("/console/overview", [("since", period.since), ("until", period.until)])
            headline = statistics.headline
            bundle = app.rules.current?.hash
            bundleShort = bundle.map { String($0.prefix("sha256:".count + 12)) + "…" }
        }
    }

    /// Where the period form is sent (the form is shared with the Overview).
    let periodAction = ConsoleAccess.allAppsPath
    var since: String
    var until: String
    var presets: [ConsolePeriod.Preset]
    var apps: [Row]
    var deadJobs: Int?

    init(period: ConsolePeriod, today: Int64, rows: [Row], deadJobs: Int?) {
        since = period.since
        until = period.until
        presets = period.presets(today: today, links: .withoutApp, path: ConsoleAccess.allAppsPath)
        apps = rows
        self.deadJobs = deadJobs
    }
}
