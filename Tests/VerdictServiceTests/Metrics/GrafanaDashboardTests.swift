import Foundation
import Testing
import VerdictService

/// `docs/grafana/verdict-dashboard.json` queries only what the service records: every `verdict_*`
/// series in every query is a series of a catalogued metric (``ServiceMetric``, which
/// ``ServiceMetricCatalogTests`` holds to `/metrics`), and every label it selects or groups by is one
/// of that metric's.
@Suite struct GrafanaDashboardTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/grafana/verdict-dashboard.json")

    /// Every PromQL query of the dashboard: the panels' `expr` and the variables' `definition`.
    static func queries() throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        var found: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    if ["expr", "definition"].contains(key), let query = member as? String { found.append(query) } else { walk(member) }
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(json)
        return found
    }

    /// The metrics a query reads, each with the labels its selector names.
    static func selectors(in query: String) throws -> [(series: String, labels: [String])] {
        let selector = try Regex(#"(verdict_[a-z0-9_]+)(\{([^}]*)\})?"#)
        let label = try Regex(#"([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)"#)
        return query.matches(of: selector).map { match in
            let matchers = match.output[3].substring.map(String.init) ?? ""
            let labels = matchers.matches(of: label).compactMap { $0.output[1].substring.map(String.init) }
            return (String(match.output[1].substring ?? ""), labels)
        }
    }

    /// The labels a query groups by (`by (a, b)`).
    static func groupings(in query: String) throws -> [String] {
        try query.matches(of: Regex(#"by\s*\(([^)]*)\)"#)).flatMap { match in
            (match.output[1].substring ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func everyQueriedMetricAndLabelIsRecorded() throws {
        let queries = try Self.queries()
        #expect(queries.count >= 14)
        let bySeries = Dictionary(
            ServiceMetric.all.flatMap { metric in metric.seriesNames.map { ($0, metric) } }, uniquingKeysWith: { first, _ in first })
        var queried: Set<String> = []
        for query in queries {
            let selectors = try Self.selectors(in: query)
            #expect(!selectors.isEmpty, "a query reads no Verdict metric: \(query)")
            var labels: Set<String> = ["le"]
            for (series, selected) in selectors {
                guard let metric = bySeries[series] else {
                    Issue.record("\(series) is not a series the service records (query: \(query))")
                    continue
                }
                queried.insert(metric.name)
                labels.formUnion(metric.labels)
                for name in selected { #expect(metric.labels.contains(name), "\(series) has no label \(name)") }
            }
            for name in try Self.groupings(in: query) { #expect(labels.contains(name), "grouped by \(name): \(query)") }
        }
        // The panels the operations guide promises.
        for name in ["verdict_notifications_total", "verdict_notification_intake_seconds", "verdict_job_queue_oldest_age_seconds",
                     "verdict_rule_decisions_total", "verdict_appstore_api_calls_total",
                     "verdict_consumption_deadline_missed_total", "verdict_jobs"] {
            #expect(queried.contains(name), "\(name)")
        }
    }

    @Test func aMisspelledMetricIsCaught() throws {
        let selectors = try Self.selectors(in: #"sum by (app) (rate(verdict_notification_total{app=~"$app"}[5m]))"#)
        #expect(selectors.map(\.series) == ["verdict_notification_total"])
        #expect(!ServiceMetric.all.flatMap(\.seriesNames).contains("verdict_notification_total"))
        #expect(selectors.first?.labels == ["app"])
    }
}
