import Foundation
import RuleEngine
import VerdictStorage

/// The Rules page: the active bundle's files line by line, each rule's live counts beside its
/// `id:` line, and the last refused candidate with its positioned errors and failing tests.
struct ConsoleRulesView {
    struct Bundle {
        var hash: String
        var loadedAt: String
        var directory: String
    }

    struct Rejected {
        var at: String
        var hash: String?
        var text: String
    }

    struct RuleSummary {
        var id: String
        /// The row's `id`, which decision pages link to (``ConsoleLinks/ruleAnchor(_:)``).
        var anchor: String
        var summary: String
    }

    struct Line {
        var number: Int
        var text: String
        var rule: RuleSummary?
    }

    struct File {
        var index: Int
        var name: String
        var lines: [Line]
    }

    var bundle: Bundle?
    var rejected: Rejected?
    var files: [File]
    /// One per retention message text or image Apple has not approved.
    var warnings: [String]
    /// Stored, not computed: the template reads properties by reflection.
    var hasWarnings: Bool

    init(reloader: RulesReloader, offers: [OfferRuleStatistics], refunds: [RefundRuleStatistics],
         messageStates: [RetentionMessageState]) {
        let active = reloader.store.current
        warnings = RetentionMessageReview(messages: active?.messages ?? .empty, states: messageStates).warnings
        hasWarnings = !warnings.isEmpty
        bundle = active.map {
            Bundle(hash: $0.hash, loadedAt: reloader.loadedAt.map(ConsoleFormat.instant) ?? "at start", directory: reloader.directory)
        }
        rejected = reloader.lastRejected.map {
            Rejected(at: ConsoleFormat.instant($0.at), hash: $0.rejection.hash, text: $0.rejection.render())
        }
        var summaries: [String: String] = [:]
        for statistics in offers {
            let actions = [
                ("took Apple's offer", statistics.appleOffer), ("switched", statistics.switched),
                ("renewed", statistics.renewed), ("cancelled", statistics.cancelled),
                ("added seats", statistics.addedSeats), ("seats refunded", statistics.seatsRefunded),
                ("seats unclaimed", statistics.seatsUnclaimed), ("assignment revoked", statistics.assignmentRevoked),
            ].filter { $0.1 > 0 }.map { " · \($0.1) \($0.0)" }.joined()
            summaries[statistics.ruleId] = "\(statistics.decisions) decisions · \(statistics.offersMade) offers · "
                + "\(statistics.heldOut) held out · \(statistics.redeemed) redeemed" + actions
        }
        for statistics in refunds {
            summaries[statistics.ruleId] = "\(statistics.requests) requests · \(statistics.sent) sent · "
                + "\(statistics.granted) granted · \(statistics.declined) declined · \(statistics.reversed) reversed"
                + (statistics.seatsRefunded > 0 ? " · \(statistics.seatsRefunded) seats refunded" : "")
        }
        let references = active?.ruleReferences ?? []
        // Rule files first, then the catalog, then the tests.
        func rank(_ name: String) -> Int { name.hasSuffix(".rules.yaml") ? 0 : name == "catalog.yaml" ? 1 : 2 }
        let ordered = (active?.files ?? []).sorted { (rank($0.name), $0.name) < (rank($1.name), $1.name) }
        files = ordered.enumerated().map { index, file in
            let rules = Dictionary(references.filter { $0.file == file.path }.map { ($0.line, $0.id) }, uniquingKeysWith: { first, _ in first })
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { offset, text in
                let number = offset + 1
                return Line(number: number, text: String(text), rule: rules[number].map {
                    RuleSummary(id: $0, anchor: ConsoleLinks.ruleAnchor($0), summary: summaries[$0] ?? "no decision yet")
                })
            }
            return File(index: index, name: file.name, lines: lines)
        }
    }
}
