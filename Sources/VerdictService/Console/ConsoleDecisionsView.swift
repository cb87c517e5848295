import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The Decisions page: offer decisions or refund requests of a period, narrowed by rule, offer and
/// outcome, newest first; each row opens the decision.
struct ConsoleDecisionsView {
    /// The filter form's values, read from the query string.
    struct Query {
        var section: String
        var since: String
        var until: String
        var rule: String
        var offer: String
        var outcome: String

        init(_ request: Request) throws {
            func value(_ name: String) throws -> String {
                (try request.query(name) ?? "").trimmingCharacters(in: .whitespaces)
            }
            section = try value("section") == "refunds" ? "refunds" : "offers"
            since = try value("since")
            until = try value("until")
            rule = try value("rule")
            offer = try value("offer")
            outcome = try value("outcome")
        }

        /// The storage filter: `until` is the whole day given (the next midnight, excluded).
        var filter: DecisionFilter {
            func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
            return DecisionFilter(
                period: DecisionPeriod(
                    since: RuleTime.parseTimestamp(since), until: RuleTime.parseTimestamp(until).map { $0 + RuleTime.day }),
                ruleId: nonEmpty(rule), offerId: nonEmpty(offer), outcome: nonEmpty(outcome))
        }
    }

    struct Option {
        var value: String
        var label: String
        var selected: Bool
    }

    struct Row {
        var href: String
        var decidedAt: String
        var originalTransactionId: String
        /// The subscription's timeline on the Customer page.
        var customerHref: String
        var trigger: String
        var rule: String
        var result: String
        var outcome: String
    }

    /// The app the filter form keeps (nil: the session sees one app).
    var app: String?
    var sections: [Option]
    var since: String
    var until: String
    var rule: String
    var offer: String
    var outcome: String
    var decisions: [Row]

    init(_ query: Query, offers: [OfferDecisionRecord], links: ConsoleLinks) {
        self.init(query, links: links, rows: offers.map { record in
            Row(href: links.offerDecision(record.id), decidedAt: ConsoleFormat.instant(record.decidedAt),
                originalTransactionId: record.originalTransactionId,
                customerHref: links.customer(record.originalTransactionId), trigger: record.trigger, rule: record.ruleId ?? "—",
                result: Self.result(record),
                outcome: record.outcome ?? "")
        })
    }

    /// What an offer decision gave, as the list shows it.
    private static func result(_ record: OfferDecisionRecord) -> String {
        if record.heldOut { return "held out (would get \(record.offerId ?? "nothing"))" }
        let offer = record.offerId.map { "offer \($0)" } ?? "no offer"
        return record.answeredLate ? "\(offer), answered late (Apple's fallback shown)" : offer
    }

    init(_ query: Query, refunds: [ConsumptionRequestRecord], links: ConsoleLinks) {
        self.init(query, links: links, rows: refunds.map { record in
            Row(href: links.refundRequest(record.id), decidedAt: ConsoleFormat.instant(record.decidedAt),
                originalTransactionId: record.originalTransactionId,
                customerHref: links.customer(record.originalTransactionId), trigger: "CONSUMPTION_REQUEST",
                rule: ConsoleRefundsView.decidedBy(record),
                result: "\(record.state.rawValue)\(record.body == nil ? "" : " (answer for Apple)")", outcome: record.outcome ?? "")
        })
    }

    private init(_ query: Query, links: ConsoleLinks, rows: [Row]) {
        app = links.app
        sections = [("offers", "Offers"), ("refunds", "Refund requests")].map {
            Option(value: $0.0, label: $0.1, selected: $0.0 == query.section)
        }
        since = query.since
        until = query.until
        rule = query.rule
        offer = query.offer
        outcome = query.outcome
        decisions = rows
    }
}
