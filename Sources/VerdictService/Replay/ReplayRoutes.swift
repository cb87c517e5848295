import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The replay API: `POST /v1/rules/replay` (a candidate bundle, checked and tested at once, then
/// replayed by a durable job; 202 with the replay's id), `GET /v1/rules/replay` (recent replays),
/// `GET /v1/rules/replay/{replayId}` (state, progress and, once done, the JSON report),
/// `GET /v1/rules/replay/{replayId}/report.html` (the HTML report) and
/// `DELETE /v1/rules/replay/{replayId}` (cancel).
///
/// Launching and listing are about an app as a whole (the request's ``RequestApps/single()``
/// app); a replay named by its id is found in the app that ran it, among those the request may
/// act for.
struct ReplayRoutes {
    /// Wakes the worker when a replay is queued.
    let signal: JobSignal
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.post("/v1/rules/replay") { request, context in
            let app = try context.apps.single()
            let upload = try await ReplayUpload.read(request)
            let record = try await ReplayLauncher(app: app, signal: signal, now: now).launch(upload)
            var response = try JSONBody.response(try ReplayView(record, now: record.createdAt), status: .accepted)
            response.headers[.location] = "/v1/rules/replay/\(record.id)"
            return response
        }
        router.get("/v1/rules/replay") { request, context in
            let limit = try request.limit(default: 20, maximum: 200)
            let repository = try context.apps.single().repository
            let at = now().appStoreMilliseconds
            return try JSONBody.response(["replays": try await repository.replays(limit: limit).map {
                try ReplayView($0, withReport: false, now: at)
            }])
        }
        router.get("/v1/rules/replay/{replayId}") { _, context in
            try JSONBody.response(try ReplayView(try await replay(context).record, now: now().appStoreMilliseconds))
        }
        router.get("/v1/rules/replay/{replayId}/report.html") { _, context in
            let record = try await replay(context).record
            guard record.state == .done, let json = record.report else {
                throw ServiceError(.conflict, code: "REPORT_NOT_READY", message: "replay \(record.id) is \(record.state.rawValue): no report yet")
            }
            let report = try JSONDecoder().decode(ReplayReport.self, from: Data(json.utf8))
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: ReplayReportPage.render(report))))
        }
        router.delete("/v1/rules/replay/{replayId}") { _, context in
            let (app, existing) = try await replay(context)
            guard !existing.state.isFinished,
                  let record = try await app.repository.cancelReplay(id: existing.id, at: now().appStoreMilliseconds),
                  record.state == .cancelled
            else {
                throw ServiceError(.conflict, code: "REPLAY_FINISHED", message: "replay \(existing.id) already ended: \(existing.state.rawValue)")
            }
            return try JSONBody.response(try ReplayView(record, now: now().appStoreMilliseconds))
        }
    }

    /// The replay the path names, with its app; 404 when no app the request may act for has it.
    private func replay(_ context: ServiceRequestContext) async throws -> (app: AppContext, record: RuleReplayRecord) {
        let id = try Self.replayId(context)
        guard let (app, record) = try await context.apps.locate({ try await $0.repository.replay(id: id) }) else {
            throw ServiceError.notFound("no replay \(id)")
        }
        return (app, record)
    }

    /// The path's replay id: a UUID, lowercased.
    static func replayId(_ context: ServiceRequestContext) throws -> String {
        let text = try context.parameters.require("replayId")
        guard let uuid = UUID(uuidString: text) else {
            throw ServiceError.badRequest("INVALID_PARAMETER", "replayId must be a UUID")
        }
        return uuid.uuidString.lowercased()
    }
}
