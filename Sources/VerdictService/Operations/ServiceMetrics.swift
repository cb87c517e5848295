import Foundation
import Prometheus
import VerdictStorage

/// The service's Prometheus metrics, in a registry owned by one running service (no global state,
/// so several services can run in one test process). Served at `GET /metrics`.
///
/// The metrics that count an app's work — notifications, decisions, consumption submissions,
/// cancel-page answers — carry an `app` label: each app's parts record through ``forApp(_:)``
/// (the same registry); the service's own recordings label them `app=""`.
public final class ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    /// The app (bundle id) whose work these recordings count; nil: the service's own.
    public let app: String?

    public init() {
        registry = PrometheusCollectorRegistry()
        app = nil
    }

    private init(registry: PrometheusCollectorRegistry, app: String) {
        self.registry = registry
        self.app = app
    }

    /// The same registry, recording `bundleId`'s work.
    public func forApp(_ bundleId: String) -> ServiceMetrics {
        ServiceMetrics(registry: registry, app: bundleId)
    }

    /// `labels` and the `app` label.
    private func byApp(_ labels: [(String, String)]) -> [(String, String)] {
        labels + [("app", app ?? "")]
    }

    /// `verdict_notifications_total{type,result,app}`: intake answers (accepted, duplicate, rejected,
    /// unavailable), `app` the app that took the notification in.
    public func notification(type: String, result: String) {
        registry.makeCounter(
            descriptor: Self.name("notifications", "total", "Notifications received, by notification type and intake result"),
            labels: byApp([("type", type), ("result", result)])
        ).increment()
    }

    /// `verdict_verification_failures_total{code}`.
    public func verificationFailure(code: String) {
        registry.makeCounter(
            descriptor: Self.name("verification_failures", "total", "Signed payloads that failed verification, by error code"),
            labels: [("code", code)]
        ).increment()
    }

    /// `verdict_jobs_total{kind,outcome}` and `verdict_job_duration_seconds{kind}`.
    public func job(kind: String, outcome: String, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.name("job_attempts", "total", "Job attempts, by kind and outcome (done, retry, dead, lease_lost)"),
            labels: [("kind", kind), ("outcome", outcome)]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.name("job_duration", "seconds", "Job attempt latency, by kind"),
            labels: [("kind", kind)],
            buckets: [.milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
                      .seconds(2), .seconds(10), .seconds(60)]
        ).record(duration)
    }

    /// `verdict_appstore_api_calls_total{endpoint,status}`.
    public func appStoreCall(endpoint: String, status: String) {
        registry.makeCounter(
            descriptor: Self.name("appstore_api_calls", "total", "App Store Server API calls, by endpoint and HTTP status (or 'network')"),
            labels: [("endpoint", endpoint), ("status", status)]
        ).increment()
    }

    /// `verdict_retention_realtime_total{result,cause,app}` and `verdict_retention_realtime_seconds`:
    /// Retention Messaging realtime answers — `result` message, offer, alternate_product, fallback
    /// or not_answered; `cause` says why a fallback (``RealtimeAnswer/Cause``).
    public func retentionRealtime(result: String, cause: String, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.name("retention_realtime", "total", "Retention Messaging realtime requests, by result (message, offer, alternate_product, fallback, not_answered) and cause"),
            labels: byApp([("result", result), ("cause", cause)])
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.name("retention_realtime", "seconds", "Time to answer a Retention Messaging realtime request inside Verdict"),
            labels: [],
            buckets: [.milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                      .milliseconds(250), .milliseconds(500), .seconds(1)]
        ).record(duration)
    }

    /// `verdict_retention_answered_late_total{app}`: realtime decisions stored with an answer that
    /// reached Apple after its deadline (the App Store showed its fallback; the decision was
    /// marked so it uses no cap).
    public func retentionAnsweredLate() {
        registry.makeCounter(
            descriptor: Self.name("retention_answered_late", "total", "Realtime decisions whose answer reached Apple after its deadline"),
            labels: byApp([])
        ).increment()
    }

    /// `verdict_consumption_submissions_total{result,app}`: Send Consumption Information outcomes
    /// (sent, retry, failed, missed, not_sent: refused by the job itself because the purchase is a
    /// member's `ASSIGNED` transaction); `missed` also counts `verdict_consumption_deadline_missed_total`.
    public func consumptionSubmission(result: String) {
        registry.makeCounter(
            descriptor: Self.name("consumption_submissions", "total", "Consumption information submissions, by result (sent, retry, failed, missed, not_sent: a member's ASSIGNED transaction, never sent; outcome_unknown: the process stopped during the call, so the next one may repeat it)"),
            labels: byApp([("result", result)])
        ).increment()
        if result == "missed" {
            registry.makeCounter(
                descriptor: Self.name("consumption_deadline_missed", "total", "Refund requests whose 12-hour answer deadline passed unanswered"),
                labels: byApp([])).increment()
        }
    }

    /// `verdict_decisions_total{section,history,app}`: decisions stored, by section (`offers`, `refunds`)
    /// and whether the customer's whole App Store history had been read (`complete`, `incomplete`).
    public func decision(section: String, historyComplete: Bool) {
        registry.makeCounter(
            descriptor: Self.name("decisions", "total", "Decisions stored, by section and whether the customer's history was complete"),
            labels: byApp([("section", section), ("history", historyComplete ? "complete" : "incomplete")])
        ).increment()
    }

    /// `verdict_http_connections_closed_total{reason}`: connections the HTTP edge closed —
    /// `idle_shed` (an idle connection gave its place to a newcomer), `too_many_connections` (a
    /// request refused with 503), `first_request_timeout`, `request_timeout`.
    public func httpConnectionClosed(reason: String) {
        registry.makeCounter(
            descriptor: Self.name("http_connections_closed", "total", "Connections closed by the HTTP edge, by reason"),
            labels: [("reason", reason)]
        ).increment()
    }

    /// `verdict_rules_reload_failures_total`.
    public func rulesReloadFailure() {
        registry.makeCounter(descriptor: Self.name("rules_reload_failures", "total", "Rule bundle reloads refused")).increment()
    }

    /// Sets the queue gauges from fresh statistics; `knownKinds` without jobs report zeros.
    public func update(queue: QueueStatistics, knownKinds: [String] = []) {
        var kinds = queue.kinds
        for name in knownKinds where !kinds.contains(where: { $0.kind == name }) {
            kinds.append(.init(kind: name, queued: 0, running: 0, dead: 0, oldestQueuedAge: 0))
        }
        for kind in kinds {
            for (state, value) in [("queued", kind.queued), ("running", kind.running), ("dead", kind.dead)] {
                registry.makeGauge(
                    descriptor: Self.name("jobs", "", "Jobs in the queue, by kind and state"),
                    labels: [("kind", kind.kind), ("state", state)]
                ).set(Double(value))
            }
            registry.makeGauge(
                descriptor: Self.name("job_queue_oldest_age", "seconds", "Age of the oldest runnable queued job, by kind"),
                labels: [("kind", kind.kind)]
            ).set(Double(kind.oldestQueuedAge) / 1000)
        }
    }

    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "verdict", metricName: metric, unitName: unit, helpText: help)
    }

    /// The Prometheus text exposition.
    public func exposition() -> String { registry.emitToString() }
}
