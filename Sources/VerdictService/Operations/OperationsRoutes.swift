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
    let apps: AppDirectory
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
        router.get("/metrics") { _, context in
            // The metrics count every app's work: only a token acting for every app reads them.
            guard try context.apps.grantsEveryApp else {
                throw ServiceError(.forbidden, code: "FORBIDDEN", message: "the metrics cover every app; this token acts for some")
            }
            if let statistics = try? await repository.queueStatistics(now: now().appStoreMilliseconds) {
                metrics.update(queue: statistics, knownKinds: jobKinds)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition()))
            )
        }
        router.get("/v1/jobs") { request, context in
            let stateName = try request.query("state") ?? "dead"
            guard let state = JobState(rawValue: stateName) else {
                throw ServiceError.badRequest("INVALID_PARAMETER", "state must be one of queued, running, done, dead")
            }
            let limit = try request.limit(default: 50, maximum: 500)
            // The queue is every app's: a token of some apps (or a `Verdict-App` header) sees theirs only.
            let allowed = try context.apps.apps
            let jobs = try await repository.jobs(
                state: state, limit: limit, apps: allowed.count == apps.all.count ? nil : allowed.map(\.bundleId))
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
        // Each app's rules and key; a single app's details read as before, several are named.
        let named = apps.all.count > 1
        func detail(_ app: AppContext, _ text: String) -> String { named ? "\(app.bundleId): \(text)" : text }
        let rulesChecks = apps.all.map { app -> Readiness.Check in
            if let bundle = app.rules.current {
                return .init(ready: true, detail: detail(app, "bundle \(bundle.hash.prefix(12)) loaded"))
            }
            let why = app.rules.lastRejection.map { "no valid bundle: \($0.render().prefix(500))" } ?? "no bundle loaded"
            return .init(ready: false, detail: detail(app, why))
        }
        let apiChecks = apps.all.map { app -> Readiness.Check in
            guard let reason = app.appStore.unavailableReason else {
                return .init(ready: true, detail: detail(app, "In-App Purchase key configured"))
            }
            var text = "\(reason); API calls wait in the queue"
            // Say what is waiting: refund answers have a 12-hour deadline.
            let waiting = checked.waitingSubmissions
            if waiting > 0 { text += " (\(waiting) consumption submission(s) waiting, each with a 12-hour deadline)" }
            return .init(ready: false, detail: detail(app, text))
        }
        let rulesCheck = Readiness.Check(ready: rulesChecks.allSatisfy(\.ready), detail: rulesChecks.map(\.detail).joined(separator: "; "))
        let api = Readiness.Check(ready: apiChecks.allSatisfy(\.ready), detail: apiChecks.map(\.detail).joined(separator: "; "))
        return Readiness(
            ready: database.ready && migrations.ready && rulesCheck.ready,
            database: database, migrations: migrations, rules: rulesCheck, appStoreAPI: api
        )
    }
}

/// The API view of a job.
struct JobView: Encodable {
    var id: Int64
    /// The app whose job it is (its bundle id).
    var app: String
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
        app = record.app
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
