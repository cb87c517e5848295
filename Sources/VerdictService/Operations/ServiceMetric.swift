/// One metric the service records: its Prometheus name (a stable contract: dashboards query it),
/// its kind, its help text and, for histograms, its buckets. ``ServiceMetrics`` records them
/// through swift-metrics; ``PrometheusMetricsBackend`` gives `/metrics` their help and buckets.
public struct ServiceMetric: Sendable, Hashable {
    /// How the metric is recorded, and so which series its name has in the exposition.
    public enum Kind: Sendable, Hashable {
        case counter
        case gauge
        /// A duration histogram (seconds), with its bucket bounds.
        case histogram([Duration])
    }

    /// The name in the exposition (`verdict_…`); also the swift-metrics label.
    public let name: String
    /// Its labels, in the order it records them (a histogram's `le` aside).
    public let labels: [String]
    public let kind: Kind
    public let help: String

    /// The names of its series in the Prometheus exposition (a histogram's `_bucket`, `_sum`, `_count`).
    public var seriesNames: [String] {
        guard case .histogram = kind else { return [name] }
        return ["_bucket", "_sum", "_count"].map { name + $0 }
    }

    /// Every metric the service records.
    public static let all: [ServiceMetric] = [
        notifications, verificationFailures, jobAttempts, jobDuration, appStoreCalls, retentionRealtime,
        retentionRealtimeSeconds, retentionAnsweredLate, consumptionSubmissions, consumptionDeadlineMissed, decisions,
        ruleDecisions, notificationIntakeSeconds, httpConnectionsClosed, rulesReloadFailures, jobs, jobQueueOldestAge,
    ]

    public static let notifications = ServiceMetric(
        name: "verdict_notifications_total", labels: ["type", "result", "app"], kind: .counter,
        help: "Notifications received, by notification type and intake result")
    public static let notificationIntakeSeconds = ServiceMetric(
        name: "verdict_notification_intake_seconds", labels: ["result"],
        kind: .histogram([.milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                          .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5)]),
        help: "Time to take a notification in (verification and the durable store), by intake result")
    public static let verificationFailures = ServiceMetric(
        name: "verdict_verification_failures_total", labels: ["code"], kind: .counter,
        help: "Signed payloads that failed verification, by error code")
    public static let jobAttempts = ServiceMetric(
        name: "verdict_job_attempts_total", labels: ["kind", "outcome"], kind: .counter,
        help: "Job attempts, by kind and outcome (done, retry, dead, lease_lost)")
    public static let jobDuration = ServiceMetric(
        name: "verdict_job_duration_seconds", labels: ["kind"],
        kind: .histogram([.milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
                          .seconds(2), .seconds(10), .seconds(60)]),
        help: "Job attempt latency, by kind")
    public static let appStoreCalls = ServiceMetric(
        name: "verdict_appstore_api_calls_total", labels: ["endpoint", "status"], kind: .counter,
        help: "App Store Server API calls, by endpoint and HTTP status (or 'network')")
    public static let retentionRealtime = ServiceMetric(
        name: "verdict_retention_realtime_total", labels: ["result", "cause", "app"], kind: .counter,
        help: "Retention Messaging realtime requests, by result (message, offer, alternate_product, fallback, not_answered) and cause")
    public static let retentionRealtimeSeconds = ServiceMetric(
        name: "verdict_retention_realtime_seconds", labels: [],
        kind: .histogram([.milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                          .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1)]),
        help: "Time to answer a Retention Messaging realtime request inside Verdict")
    public static let retentionAnsweredLate = ServiceMetric(
        name: "verdict_retention_answered_late_total", labels: ["app"], kind: .counter,
        help: "Realtime decisions whose answer reached Apple after its deadline")
    public static let consumptionSubmissions = ServiceMetric(
        name: "verdict_consumption_submissions_total", labels: ["result", "app"], kind: .counter,
        help: "Consumption information submissions, by result (sent, retry, failed, missed, not_sent: a member's ASSIGNED transaction, never sent; outcome_unknown: the process stopped during the call, so the next one may repeat it)")
    public static let consumptionDeadlineMissed = ServiceMetric(
        name: "verdict_consumption_deadline_missed_total", labels: ["app"], kind: .counter,
        help: "Refund requests whose 12-hour answer deadline passed unanswered")
    public static let decisions = ServiceMetric(
        name: "verdict_decisions_total", labels: ["section", "history", "app"], kind: .counter,
        help: "Decisions stored, by section and whether the customer's history was complete")
    public static let ruleDecisions = ServiceMetric(
        name: "verdict_rule_decisions_total", labels: ["section", "rule", "app"], kind: .counter,
        help: "Decisions stored, by section and the rule that decided (none: no rule matched)")
    public static let httpConnectionsClosed = ServiceMetric(
        name: "verdict_http_connections_closed_total", labels: ["reason"], kind: .counter,
        help: "Connections closed by the HTTP edge, by reason")
    public static let rulesReloadFailures = ServiceMetric(
        name: "verdict_rules_reload_failures_total", labels: [], kind: .counter, help: "Rule bundle reloads refused")
    public static let jobs = ServiceMetric(name: "verdict_jobs", labels: ["kind", "state"], kind: .gauge, help: "Jobs in the queue, by kind and state")
    public static let jobQueueOldestAge = ServiceMetric(
        name: "verdict_job_queue_oldest_age_seconds", labels: ["kind"], kind: .gauge, help: "Age of the oldest runnable queued job, by kind")
}
