import Foundation
import Logging
import VerdictStorage

/// Runs a job with the handler of the app it belongs to: one worker claims every app's jobs from
/// the one queue, and each job says its app (``JobRecord/app``). A job of an app that is no longer
/// configured dies with a message naming the app (it cannot run: its rules, key and webhook are
/// gone), and reappears in `/v1/jobs?state=dead`.
struct AppJobRouter: JobHandler {
    let kind: String
    let apps: AppDirectory

    /// One router per job kind any app handles.
    static func handlers(for apps: AppDirectory) -> [any JobHandler] {
        let kinds = Set(apps.all.flatMap(\.jobHandlers.keys))
        return kinds.sorted().map { AppJobRouter(kind: $0, apps: apps) }
    }

    func run(_ job: JobRecord, logger: Logger) async throws -> String? {
        guard let handler = apps.app(bundleId: job.app)?.jobHandlers[kind] else {
            throw JobFailure.permanent("the app \(job.app) is not configured")
        }
        var logger = logger
        logger[metadataKey: "app"] = .string(job.app)
        return try await handler.run(job, logger: logger)
    }
}
