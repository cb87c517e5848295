import Foundation
import VerdictStorage

/// The Refund requests page: open requests first with the time left to Apple's deadline, then the
/// others with what happened (sent, not sent and why, failed, missed) and Apple's outcome.
struct ConsoleRefundsView {
    struct Row {
        var href: String
        var transactionId: String
        var reason: String
        var state: String
        var deadline: String
        var timeLeft: String?
        var sent: String
        var rule: String
        var why: String
        var outcome: String
    }

    var requests: [Row]
    var openCount: Int
    var total: Int

    init(_ records: [ConsumptionRequestRecord], links: ConsoleLinks, now: Int64) {
        let ordered = records.filter { $0.state == .pending } + records.filter { $0.state != .pending }
        requests = ordered.map { record in
            // Only a request not sent has a reason not to (the record is parsed for nothing else).
            let notSent = record.state == .notSent
                ? ConsoleFormat.member(record.json, "notSentReason").map { "not sent: \($0)" } : nil
            return Row(
                href: links.refundRequest(record.id), transactionId: record.transactionId, reason: record.reason ?? "—", state: record.state.rawValue,
                deadline: ConsoleFormat.instant(record.deadline),
                timeLeft: record.state == .pending && record.deadline > now ? ConsoleFormat.duration(record.deadline - now) : nil,
                sent: record.sentAt.map(ConsoleFormat.instant) ?? "—",
                rule: Self.decidedBy(record),
                why: notSent ?? record.lastError ?? "", outcome: record.outcome ?? "")
        }
        openCount = records.count { $0.state == .pending }
        total = records.count
    }

    /// What decided the request: its rule, the veto that blocked it, the default answer, or the
    /// guard that makes a member's `ASSIGNED` transaction not applicable.
    static func decidedBy(_ record: ConsumptionRequestRecord) -> String {
        if isNotApplicable(record) { return "not applicable: a group member's transaction (ASSIGNED)" }
        return record.blockedBy.map { "vetoed by \($0)" } ?? record.ruleId ?? "default"
    }

    /// Whether the request was about a member's `ASSIGNED` transaction, which the guard (no rule)
    /// left unanswered.
    static func isNotApplicable(_ record: ConsumptionRequestRecord) -> Bool {
        record.blockedBy == RefundDecider.assignedTransactionGuard && record.ruleId == nil
    }
}
