import Foundation
import VerdictStorage
import VerdictRequests

/// A replay as the console lists and shows it.
struct ConsoleReplayView {
    var id: String
    /// The replay's page, its HTML report and its JSON report.
    var href: String
    var reportHref: String
    var reportJSONHref: String
    var createdAt: String
    var state: String
    var progress: String
    var candidate: String
    var baseline: String
    var error: String?
    var running: Bool
    var done: Bool

    init(_ record: RuleReplayRecord, links: ConsoleLinks) {
        id = record.id
        href = links.replay(record.id)
        reportHref = links.replay(record.id, "report")
        reportJSONHref = links.replay(record.id, "report.json")
        createdAt = ConsoleFormat.instant(record.createdAt)
        state = record.state.rawValue
        progress = record.progressTotal > 0 ? "\(record.progressDone) of \(record.progressTotal) decisions" : "—"
        candidate = record.candidateHash
        let request = try? JSONDecoder().decode(ReplayRequest.self, from: Data(record.request.utf8))
        baseline = request.map { $0.baseline == "active" ? "the active bundle" : "what was decided" } ?? ""
        error = record.error
        running = !record.state.isFinished
        done = record.state == .done
    }
}

/// The replay form: the active bundle's files (to edit one), what was refused, the recent replays.
struct ConsoleReplayForm {
    struct Refusal {
        var message: String
        var details: String
    }

    var csrf: String
    /// Where the form is sent: the replay page of the app it replays.
    var action: String
    var files: [String]
    var refusal: Refusal?
    var replays: [ConsoleReplayView]
}
