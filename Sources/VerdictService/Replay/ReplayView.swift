import Foundation
import VerdictStorage
import VerdictRequests

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

    /// The view of `record` at `now` (UNIX ms: the rate of a running replay is measured up to it).
    init(_ record: RuleReplayRecord, withReport: Bool = true, now: Int64) throws {
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
