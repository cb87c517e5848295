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
}
