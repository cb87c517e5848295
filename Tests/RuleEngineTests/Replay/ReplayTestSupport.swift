import RuleEngine

/// Hand-built histories for the replay tests: stored decisions made by a baseline bundle, one a
/// day from 2026-12-01, each with the facts it saw.
enum ReplayTestSupport {
    static let day: Int64 = 86_400_000
    static let start: Int64 = RuleTime.parseTimestamp("2026-12-01T12:00:00Z")!

    /// An auto-renew-off event for subscriber `id` paying `price` (e.g. `59.99 USD`).
    static func autoRenewOff(_ id: String, price: String, at instant: Int64, tenure: String = "400d") -> String {
        let currency = price.split(separator: " ").last.map(String.init) ?? "USD"
        return """
            event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED, environment: PRODUCTION, signedDate: '\(RuleTime.renderTimestamp(instant))'}
            subscription: {originalTransactionId: '\(id)', productId: com.example.pro.annual, price: \(price), currency: \(currency), tenure: \(tenure), paidPeriods: 2, eligibleWinBackOfferIds: []}
            customer: {transactions: [], refunds: [], offersRedeemed: [], decisions: []}
            """
    }

    /// A `CONSUMPTION_REQUEST` for purchase `id` of an auto-renewable subscription.
    static func consumptionRequest(_ id: String, at instant: Int64) -> String {
        """
        event: {type: CONSUMPTION_REQUEST, environment: PRODUCTION, signedDate: '\(RuleTime.renderTimestamp(instant))', consumptionRequestReason: UNINTENDED_PURCHASE}
        purchase: {transactionId: '\(id)', originalTransactionId: '\(id)', productId: com.example.pro.annual, productType: AUTO_RENEWABLE, price: 59.99 USD, currency: USD}
        """
    }

    /// Stored decisions of `section`, one per facts document, decided by `baseline` in order with
    /// no limits counted (as if the caps had been generous), each with `outcome`.
    static func history(_ facts: [String], section: Decision.Section, baseline: RuleBundle,
                        outcome: (Int) -> String? = { _ in nil }) throws -> [ReplayCase] {
        try facts.enumerated().map { index, yaml in
            let data = try FactData(yaml: yaml)
            let typed = try Facts(data, schema: baseline.schema)
            let decision = baseline.decide(typed)
            return ReplayCase(
                id: "decision-\(index)", section: section, originalTransactionId: String(format: "9%07d", index),
                transactionId: section == .refunds ? "t\(index)" : nil, decidedAt: start + Int64(index) * day,
                facts: data, recorded: decision, recordedExplanation: decision.renderText(), mayShare: true,
                outcome: outcome(index))
        }
    }

    /// Replays `cases` with `candidate` against what was recorded (diff against `reference`).
    static func replay(_ cases: [ReplayCase], candidate: RuleBundle, reference: RuleBundle? = nil,
                       baseline: ReplayBaseline = .recorded) -> ReplayReport {
        var replay = RuleReplay(candidate: candidate, candidateSource: "candidate", baseline: baseline, reference: reference)
        for replayCase in cases { replay.replay(replayCase) }
        return replay.report()
    }

    /// The number of decisions that went `from` → `to` in `section` (0 when none).
    static func count(_ report: ReplayReport, _ section: Decision.Section, _ from: String, _ to: String,
                      fromReason: ReplayVerdict.Reason? = nil, toReason: ReplayVerdict.Reason? = nil) -> Int {
        report.transitions.first {
            $0.section == section && $0.from == from && $0.to == to && $0.fromReason == fromReason && $0.toReason == toReason
        }?.count ?? 0
    }
}
