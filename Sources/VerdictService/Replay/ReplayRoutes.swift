import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The replay API: `POST /v1/rules/replay` (a candidate bundle, checked and tested at once, then
/// replayed by a durable job; 202 with the replay's id), `GET /v1/rules/replay` (recent replays),
/// `GET /v1/rules/replay/{replayId}` (state, progress and, once done, the JSON report),
/// `GET /v1/rules/replay/{replayId}/report.html` (the HTML report) and
/// `DELETE /v1/rules/replay/{replayId}` (cancel).
struct ReplayRoutes {
    let repository: any RuleReplayStore
    let signal: JobSignal
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.post("/v1/rules/replay") { request, _ in
            let upload = try await ReplayUpload.read(request)
            let candidate = try CandidateRefusal.check(upload.bundleFiles)
            let at = now().appStoreMilliseconds
            let record = RuleReplayRecord(
                id: UUID().uuidString.lowercased(), state: .queued, candidateHash: candidate.hash,
                request: String(decoding: try JSONEncoder.service.encode(upload), as: UTF8.self), createdAt: at)
            try await repository.createReplay(record, job: try RuleReplayJob.job(replayId: record.id, at: at))
            signal.notify()
            var headers = HTTPFields()
            headers[.location] = "/v1/rules/replay/\(record.id)"
            var response = try JSONBody.response(try ReplayView(record), status: .accepted)
            response.headers.append(contentsOf: headers)
            return response
        }
        router.get("/v1/rules/replay") { request, _ in
            let limit = try request.limit(default: 20, maximum: 200)
            return try JSONBody.response(["replays": try await repository.replays(limit: limit).map { try ReplayView($0, withReport: false) }])
        }
        router.get("/v1/rules/replay/{replayId}") { _, context in
            try JSONBody.response(try ReplayView(try await replay(context)))
        }
        router.get("/v1/rules/replay/{replayId}/report.html") { _, context in
            let record = try await replay(context)
            guard record.state == .done, let json = record.report else {
                throw ServiceError(.conflict, code: "REPORT_NOT_READY", message: "replay \(record.id) is \(record.state.rawValue): no report yet")
            }
            let report = try JSONDecoder().decode(ReplayReport.self, from: Data(json.utf8))
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: ReplayReportPage.render(report))))
        }
        router.delete("/v1/rules/replay/{replayId}") { _, context in
            let existing = try await replay(context)
            guard !existing.state.isFinished,
                  let record = try await repository.cancelReplay(id: existing.id, at: now().appStoreMilliseconds),
                  record.state == .cancelled
            else {
                throw ServiceError(.conflict, code: "REPLAY_FINISHED", message: "replay \(existing.id) already ended: \(existing.state.rawValue)")
            }
            return try JSONBody.response(try ReplayView(record))
        }
    }

    private func replay(_ context: ServiceRequestContext) async throws -> RuleReplayRecord {
        let id = try Self.replayId(context)
        guard let record = try await repository.replay(id: id) else { throw ServiceError.notFound("no replay \(id)") }
        return record
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

/// A replay as the API shows it.
struct ReplayView: Encodable {
    struct Progress: Encodable {
        var done: Int
        var total: Int
        /// Decisions per second since the replay started (nil before it did).
        var rate: Double?
        /// Seconds left at that rate.
        var remainingSeconds: Double?
    }

    var id: String
    var state: String
    var candidate: String
    var baseline: String
    var section: String
    var since: Int64?
    var until: Int64?
    var sample: Int?
    var createdAt: Int64
    var startedAt: Int64?
    var finishedAt: Int64?
    var progress: Progress
    var error: String?
    /// The JSON report, once done.
    var report: JSONFragment?
    /// Where the HTML report is, once done.
    var reportHTML: String?

    init(_ record: RuleReplayRecord, withReport: Bool = true, now: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) throws {
        let request = try JSONDecoder().decode(ReplayRequest.self, from: Data(record.request.utf8))
        id = record.id
        state = record.state.rawValue
        candidate = record.candidateHash
        baseline = request.baseline
        section = request.section
        since = request.since
        until = request.until
        sample = request.sample
        createdAt = record.createdAt
        startedAt = record.startedAt
        finishedAt = record.finishedAt
        var rate: Double?
        if let startedAt = record.startedAt, record.progressDone > 0 {
            let seconds = Double(max(1, (record.finishedAt ?? now) - startedAt)) / 1000
            rate = Double(record.progressDone) / seconds
        }
        progress = Progress(
            done: record.progressDone, total: record.progressTotal, rate: rate,
            remainingSeconds: record.state == .running ? rate.map { Double(max(0, record.progressTotal - record.progressDone)) / $0 } : nil)
        error = record.error
        report = withReport ? record.report.map { JSONFragment(text: $0) } : nil
        reportHTML = record.state == .done ? "/v1/rules/replay/\(record.id)/report.html" : nil
    }
}
