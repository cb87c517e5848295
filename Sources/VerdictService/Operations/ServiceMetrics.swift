import CoreMetrics
import Foundation
import Metrics
import Prometheus
import VerdictStorage

/// The service's metrics, recorded through the swift-metrics API into a ``PrometheusMetricsBackend``
/// (served at `GET /metrics`). A service records into a backend of its own unless it is given the
/// process's (`verdict serve` and `verdict demo` bootstrap swift-metrics with it), so several
/// services can run in one test process. The names, kinds and help texts are ``ServiceMetric``'s.
///
/// The metrics that count an app's work — notifications, decisions, consumption submissions,
/// cancel-page answers — carry an `app` label: each app's parts record through ``forApp(_:)``
/// (the same backend); the service's own recordings label them `app=""`.
public final class ServiceMetrics: Sendable {
    public let backend: PrometheusMetricsBackend
    /// The app (bundle id) whose work these recordings count; nil: the service's own.
    public let app: String?

    /// Metrics in `backend` (by default, one of their own).
    public init(backend: PrometheusMetricsBackend = PrometheusMetricsBackend()) {
        self.backend = backend
        app = nil
    }

    private init(backend: PrometheusMetricsBackend, app: String) {
        self.backend = backend
        self.app = app
    }

    /// The same backend, recording `bundleId`'s work.
    public func forApp(_ bundleId: String) -> ServiceMetrics {
        ServiceMetrics(backend: backend, app: bundleId)
    }

    /// `labels` and the `app` label.
    private func byApp(_ labels: [(String, String)]) -> [(String, String)] {
        labels + [("app", app ?? "")]
    }

    private func count(_ metric: ServiceMetric, _ labels: [(String, String)] = []) {
        Counter(label: metric.name, dimensions: labels, factory: backend.recording).increment()
    }

    private func time(_ metric: ServiceMetric, _ labels: [(String, String)], _ duration: Duration) {
        Metrics.Timer(label: metric.name, dimensions: labels, factory: backend.recording).record(duration: duration)
    }

    private func set(_ metric: ServiceMetric, _ labels: [(String, String)], _ value: Double) {
        Gauge(label: metric.name, dimensions: labels, factory: backend.recording).record(value)
    }

    /// `verdict_notifications_total{type,result,app}`: intake answers (accepted, duplicate, rejected,
    /// unavailable), `app` the app that took the notification in.
    public func notification(type: String, result: String) {
        count(.notifications, byApp([("type", type), ("result", result)]))
    }

    /// `verdict_notification_intake_seconds{result}`: the time to take a notification in
    /// (verification and the durable store), by the intake result as ``notification(type:result:)``.
    public func notificationIntake(result: String, duration: Duration) {
        time(.notificationIntakeSeconds, [("result", result)], duration)
    }

    /// `verdict_verification_failures_total{code}`.
    public func verificationFailure(code: String) {
        count(.verificationFailures, [("code", code)])
    }

    /// `verdict_job_attempts_total{kind,outcome}` and `verdict_job_duration_seconds{kind}`.
    public func job(kind: String, outcome: String, duration: Duration) {
        count(.jobAttempts, [("kind", kind), ("outcome", outcome)])
        time(.jobDuration, [("kind", kind)], duration)
    }

    /// `verdict_appstore_api_calls_total{endpoint,status}`.
    public func appStoreCall(endpoint: String, status: String) {
        count(.appStoreCalls, [("endpoint", endpoint), ("status", status)])
    }

    /// `verdict_retention_realtime_total{result,cause,app}` and `verdict_retention_realtime_seconds`:
    /// Retention Messaging realtime answers — `result` message, offer, alternate_product, fallback
    /// or not_answered; `cause` says why a fallback (``RealtimeAnswer/Cause``).
    public func retentionRealtime(result: String, cause: String, duration: Duration) {
        count(.retentionRealtime, byApp([("result", result), ("cause", cause)]))
        time(.retentionRealtimeSeconds, [], duration)
    }

    /// `verdict_retention_answered_late_total{app}`: realtime decisions stored with an answer that
    /// reached Apple after its deadline (the App Store showed its fallback; the decision was
    /// marked so it uses no cap).
    public func retentionAnsweredLate() {
        count(.retentionAnsweredLate, byApp([]))
    }

    /// `verdict_consumption_submissions_total{result,app}`: Send Consumption Information outcomes
    /// (sent, retry, failed, missed, not_sent: refused by the job itself because the purchase is a
    /// member's `ASSIGNED` transaction); `missed` also counts `verdict_consumption_deadline_missed_total`.
    public func consumptionSubmission(result: String) {
        count(.consumptionSubmissions, byApp([("result", result)]))
        if result == "missed" { count(.consumptionDeadlineMissed, byApp([])) }
    }

    /// `verdict_decisions_total{section,history,app}`: decisions stored, by section (`offers`,
    /// `refunds`, `retention`) and whether the customer's whole App Store history had been read
    /// (`complete`, `incomplete`); and `verdict_rule_decisions_total{section,rule,app}`, by the rule
    /// that decided (`none` when no rule matched; rule ids are few, named in the rule files).
    public func decision(section: String, historyComplete: Bool, rule: String?) {
        count(.decisions, byApp([("section", section), ("history", historyComplete ? "complete" : "incomplete")]))
        count(.ruleDecisions, byApp([("section", section), ("rule", rule ?? "none")]))
    }

    /// `verdict_http_connections_closed_total{reason}`: connections the HTTP edge closed —
    /// `idle_shed` (an idle connection gave its place to a newcomer), `too_many_connections` (a
    /// request refused with 503), `first_request_timeout`, `request_timeout`.
    public func httpConnectionClosed(reason: String) {
        count(.httpConnectionsClosed, [("reason", reason)])
    }

    /// `verdict_rules_reload_failures_total`.
    public func rulesReloadFailure() {
        count(.rulesReloadFailures)
    }

    /// Sets the queue gauges from fresh statistics; `knownKinds` without jobs report zeros.
    public func update(queue: QueueStatistics, knownKinds: [String] = []) {
        var kinds = queue.kinds
        for name in knownKinds where !kinds.contains(where: { $0.kind == name }) {
            kinds.append(.init(kind: name, queued: 0, running: 0, dead: 0, oldestQueuedAge: 0))
        }
        for kind in kinds {
            for (state, value) in [("queued", kind.queued), ("running", kind.running), ("dead", kind.dead)] {
                set(.jobs, [("kind", kind.kind), ("state", state)], Double(value))
            }
            set(.jobQueueOldestAge, [("kind", kind.kind)], Double(kind.oldestQueuedAge) / 1000)
        }
    }

    /// The Prometheus text exposition.
    public func exposition() -> String { backend.registry.emitToString() }
}
