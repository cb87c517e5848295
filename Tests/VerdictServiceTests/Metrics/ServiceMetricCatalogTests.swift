import Foundation
import Metrics
import Testing
import VerdictService
import VerdictStorage

/// The metrics the service records through swift-metrics come out of `/metrics` exactly as the
/// catalog (``ServiceMetric``) declares them: every family the service writes is in it, with its
/// type, help text and labels — so dashboards built on the catalog find what they query.
@Suite struct ServiceMetricCatalogTests {
    /// Records one of every metric, as an app's parts and the service's own do.
    static func recordEveryMetric(_ metrics: ServiceMetrics) {
        let app = metrics.forApp("com.example.a")
        app.notification(type: "SUBSCRIBED", result: "accepted")
        app.notificationIntake(result: "accepted", duration: .milliseconds(3))
        metrics.verificationFailure(code: "INVALID_JWS")
        metrics.job(kind: "process-notification", outcome: "done", duration: .milliseconds(12))
        app.appStoreCall(endpoint: "GET /inApps/v2/history/{id}", status: "200")
        app.retentionRealtime(result: "message", cause: "answered", duration: .milliseconds(4))
        app.retentionAnsweredLate()
        app.consumptionSubmission(result: "missed")
        app.decision(section: "offers", historyComplete: true, rule: "annual-full-price-payer")
        app.decision(section: "refunds", historyComplete: false, rule: nil)
        metrics.httpConnectionClosed(reason: "idle_shed")
        metrics.rulesReloadFailure()
        metrics.update(queue: QueueStatistics(kinds: [
            .init(kind: "process-notification", queued: 2, running: 1, dead: 0, oldestQueuedAge: 1500),
        ]))
    }

    @Test func everyFamilyIsTheCatalogs() throws {
        let metrics = ServiceMetrics()
        Self.recordEveryMetric(metrics)
        let exposition = PrometheusExposition(metrics.exposition())
        let catalog = Dictionary(uniqueKeysWithValues: ServiceMetric.all.map { ($0.name, $0) })
        #expect(Set(exposition.types.keys) == Set(catalog.keys))
        for metric in ServiceMetric.all {
            let type = switch metric.kind {
            case .counter: "counter"
            case .gauge: "gauge"
            case .histogram: "histogram"
            }
            #expect(exposition.types[metric.name] == type, "\(metric.name)")
            #expect(exposition.help[metric.name] == metric.help, "\(metric.name)")
            let samples = exposition.samples.filter { metric.seriesNames.contains($0.name) }
            #expect(!samples.isEmpty, "\(metric.name)")
            for sample in samples {
                #expect(Set(sample.labels.keys).subtracting(["le"]) == Set(metric.labels), "\(sample)")
            }
        }
        #expect(exposition.samples.contains(PrometheusExposition.Sample(
            name: "verdict_rule_decisions_total", labels: ["section": "refunds", "rule": "none", "app": "com.example.a"], value: "1")))
        #expect(exposition.samples.contains(PrometheusExposition.Sample(
            name: "verdict_job_queue_oldest_age_seconds", labels: ["kind": "process-notification"], value: "1.5")))
    }

    @Test func servicesKeepTheirOwnMetrics() {
        let first = ServiceMetrics(), second = ServiceMetrics()
        first.rulesReloadFailure()
        #expect(first.exposition().contains("verdict_rules_reload_failures_total 1"))
        #expect(!second.exposition().contains("verdict_rules_reload_failures_total"))
    }

    @Test func otherSwiftMetricsProducersGetPrometheusDefaults() {
        // What a library records through swift-metrics into the backend (`verdict serve`
        // bootstraps the process's MetricsSystem with it) shows beside the service's metrics.
        let backend = PrometheusMetricsBackend()
        Counter(label: "library_events_total", dimensions: [("kind", "x")], factory: backend).increment()
        Metrics.Timer(label: "library_call_seconds", factory: backend).record(duration: .milliseconds(20))
        let exposition = PrometheusExposition(ServiceMetrics(backend: backend).exposition())
        #expect(exposition.types["library_events_total"] == "counter")
        #expect(exposition.types["library_call_seconds"] == "histogram")
        #expect(exposition.help["library_events_total"] == nil)
    }

    /// The families dashboards query, written out here (not read from the catalog): a rename, a
    /// changed label or kind fails this test — names and labels are a contract.
    static let contract: [(name: String, kind: String, labels: [String])] = [
        ("verdict_notifications_total", "counter", ["type", "result", "app"]),
        ("verdict_notification_intake_seconds", "histogram", ["result"]),
        ("verdict_verification_failures_total", "counter", ["code"]),
        ("verdict_job_attempts_total", "counter", ["kind", "outcome"]),
        ("verdict_job_duration_seconds", "histogram", ["kind"]),
        ("verdict_appstore_api_calls_total", "counter", ["endpoint", "status"]),
        ("verdict_retention_realtime_total", "counter", ["result", "cause", "app"]),
        ("verdict_retention_realtime_seconds", "histogram", []),
        ("verdict_retention_answered_late_total", "counter", ["app"]),
        ("verdict_consumption_submissions_total", "counter", ["result", "app"]),
        ("verdict_consumption_deadline_missed_total", "counter", ["app"]),
        ("verdict_decisions_total", "counter", ["section", "history", "app"]),
        ("verdict_rule_decisions_total", "counter", ["section", "rule", "app"]),
        ("verdict_http_connections_closed_total", "counter", ["reason"]),
        ("verdict_rules_reload_failures_total", "counter", []),
        ("verdict_jobs", "gauge", ["kind", "state"]),
        ("verdict_job_queue_oldest_age_seconds", "gauge", ["kind"]),
    ]

    @Test func namesKindsAndLabelsAreTheContract() {
        let metrics = ServiceMetrics()
        Self.recordEveryMetric(metrics)
        let exposition = PrometheusExposition(metrics.exposition())
        #expect(Set(exposition.types.keys) == Set(Self.contract.map(\.name)))
        for (name, kind, labels) in Self.contract {
            #expect(exposition.types[name] == kind, "\(name)")
            let series = kind == "histogram" ? name + "_count" : name
            let sample = exposition.samples.first { $0.name == series }
            #expect(sample.map { Set($0.labels.keys) } == Set(labels), "\(name)")
        }
    }
}
