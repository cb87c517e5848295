import AppStoreServer
import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// `GET /healthz` (process up), `GET /readyz` (database, migrations, rules, App Store key) and
/// `GET /metrics` (Prometheus), plus `GET /v1/jobs?state=dead` for operators. Neither probe waits
/// on the database: `/readyz` reads what ``ReadinessMonitor`` last found.
struct OperationsRoutes {
    let repository: any JobStore & StorageLifecycle
    let monitor: ReadinessMonitor
    let rules: BundleStore
    let appStore: AppStoreAPIAccess
    let metrics: ServiceMetrics
    /// The job kinds this process runs (their queue gauges are always reported).
    let jobKinds: [String]
    let now: @Sendable () -> Date

    func registerProbes(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/healthz") { _, _ in
            try JSONBody.response(["status": "ok"])
        }
        router.get("/readyz") { _, _ in
            let report = readiness()
            return try JSONBody.response(report, status: report.ready ? .ok : .serviceUnavailable)
        }
    }

    func registerAuthenticated(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/metrics") { _, _ in
            if let statistics = try? await repository.queueStatistics(now: now().appStoreMilliseconds) {
                metrics.update(queue: statistics, knownKinds: jobKinds)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition()))
            )
        }
        router.get("/v1/jobs") { request, _ in
            let stateName = try request.query("state") ?? "dead"
            guard let state = JobState(rawValue: stateName) else {
                throw ServiceError.badRequest("INVALID_PARAMETER", "state must be one of queued, running, done, dead")
            }
            let limit = try request.limit(default: 50, maximum: 500)
            let jobs = try await repository.jobs(state: state, limit: limit)
            return try JSONBody.response(["jobs": jobs.map(JobView.init)])
        }
    }

    /// The `/readyz` body.
    struct Readiness: Encodable {
        struct Check: Encodable {
            var ready: Bool
            var detail: String
        }
        var ready: Bool
        var database: Check
        var migrations: Check
        var rules: Check
        var appStoreAPI: Check
    }

    /// The rules and the App Store key as they are now; the database as last checked.
    func readiness() -> Readiness {
        let checked = monitor.current
        let database = checked.database, migrations = checked.migrations
        let rulesCheck: Readiness.Check
        if let bundle = rules.current {
            rulesCheck = .init(ready: true, detail: "bundle \(bundle.hash.prefix(12)) loaded")
        } else {
            rulesCheck = .init(ready: false, detail: rules.lastRejection.map { "no valid bundle: \($0.render().prefix(500))" } ?? "no bundle loaded")
        }
        var apiDetail = "In-App Purchase key configured"
        if let reason = appStore.unavailableReason {
            apiDetail = "\(reason); API calls wait in the queue"
            // Say what is waiting: refund answers have a 12-hour deadline.
            let waiting = checked.waitingSubmissions
            if waiting > 0 { apiDetail += " (\(waiting) consumption submission(s) waiting, each with a 12-hour deadline)" }
        }
        let api = Readiness.Check(ready: appStore.isAvailable, detail: apiDetail)
        return Readiness(
            ready: database.ready && migrations.ready && rulesCheck.ready,
            database: database, migrations: migrations, rules: rulesCheck, appStoreAPI: api
        )
    }
}

/// The API view of a job.
struct JobView: Encodable {
    var id: Int64
    var kind: String
    var state: String
    var attempts: Int
    var maxAttempts: Int
    var notificationUUID: String?
    var runAt: Int64
    var deadline: Int64?
    var lastError: String?
    var updatedAt: Int64

    init(_ record: JobRecord) {
        id = record.id
        kind = record.job.kind
        state = record.state.rawValue
        attempts = record.attempts
        maxAttempts = record.job.maxAttempts
        notificationUUID = record.job.notificationUUID
        runAt = record.job.runAt
        deadline = record.job.deadline
        lastError = record.lastError
        updatedAt = record.updatedAt
    }
}
